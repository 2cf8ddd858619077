// Command rebootlab-workload is the container rebootlab's experiment workloads run: a small HTTP
// server on :8080 whose GET /healthz answers the readiness probe and GET /livez the liveness probe (200, or
// 503 while a failure schedule says so), and GET / names the pod.
// It exits promptly on SIGTERM so pod deletion timings are not stretched by a slow shutdown.
// `rebootlab-workload get URL` is the matching client (busybox's static wget cannot resolve names
// without glibc's NSS modules): it prints the body and exits non-zero on any failure; exec probes run it
// against the server's own /healthz or /livez.
//
// Failure schedules (rebootlab's workloads[].failReadiness / failLiveness) come from the environment,
// REBOOTLAB_FAIL_READINESS and REBOOTLAB_FAIL_LIVENESS, each `after=<d>[,for=<d>][,every=<d>]` with Go
// durations counted from the process start: failing from `after` on, for `for` (for ever when absent),
// again every `every`. A liveness failure restarts the container, which starts its schedule again.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// schedule is when a probe endpoint fails, relative to the process start.
type schedule struct {
	after, duration, every time.Duration
	set                    bool
}

// parseSchedule reads `after=20s,for=30s,every=60s`; an empty text is no schedule.
func parseSchedule(text string) (schedule, error) {
	var s schedule
	if text == "" {
		return s, nil
	}
	s.set = true
	for _, part := range strings.Split(text, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return s, fmt.Errorf("%q is not key=duration", part)
		}
		d, err := time.ParseDuration(value)
		if err != nil || d < 0 {
			return s, fmt.Errorf("%s: %q is not a duration", key, value)
		}
		switch key {
		case "after":
			s.after = d
		case "for":
			s.duration = d
		case "every":
			s.every = d
		default:
			return s, fmt.Errorf("unknown key %q (after, for, every)", key)
		}
	}
	if s.every > 0 && (s.duration == 0 || s.duration > s.every) {
		return s, fmt.Errorf("every=%s needs for= shorter than it", s.every)
	}
	return s, nil
}

// failing tells whether the schedule fails `elapsed` after the process start.
func (s schedule) failing(elapsed time.Duration) bool {
	if !s.set || elapsed < s.after {
		return false
	}
	since := elapsed - s.after
	if s.every > 0 {
		since %= s.every
	}
	return s.duration == 0 || since < s.duration
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == "get" {
		os.Exit(get(os.Args[2]))
	}
	started := time.Now()
	startedAt := started.UTC().Format(time.RFC3339Nano)
	readiness, err := parseSchedule(os.Getenv("REBOOTLAB_FAIL_READINESS"))
	if err == nil {
		var liveness schedule
		liveness, err = parseSchedule(os.Getenv("REBOOTLAB_FAIL_LIVENESS"))
		if err == nil {
			serve(started, startedAt, readiness, liveness)
			return
		}
	}
	fmt.Fprintln(os.Stderr, "rebootlab-workload: failure schedule:", err)
	os.Exit(2)
}

// serve runs the HTTP server until SIGTERM or SIGINT.
func serve(started time.Time, startedAt string, readiness, liveness schedule) {
	probe := func(s schedule, what string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			if s.failing(time.Since(started)) {
				http.Error(w, what+" failing on schedule", http.StatusServiceUnavailable)
				return
			}
			fmt.Fprintln(w, "ok")
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", probe(readiness, "readiness"))
	mux.HandleFunc("/livez", probe(liveness, "liveness"))
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		host, _ := os.Hostname()
		fmt.Fprintf(w, "pod=%s startedAt=%s\n", host, startedAt)
	})
	addr := ":8080"
	if port := os.Getenv("PORT"); port != "" {
		addr = ":" + port
	}
	server := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := server.ListenAndServe(); err != nil && err != http.ErrServerClosed {
			fmt.Fprintln(os.Stderr, "rebootlab-workload:", err)
			os.Exit(1)
		}
	}()
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = server.Shutdown(ctx)
}

// get fetches url with a 5 s timeout, prints the body, and returns the process exit code.
func get(url string) int {
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rebootlab-workload get:", err)
		return 1
	}
	defer resp.Body.Close()
	if _, err := io.Copy(os.Stdout, resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "rebootlab-workload get:", resp.Status, err)
		return 1
	}
	return 0
}
