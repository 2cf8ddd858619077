// Command pause is the pod sandbox process of rebootlab's offline node image: it holds the pod's
// namespaces open, reaps orphaned children, and exits on SIGINT or SIGTERM.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for sig := range signals {
		if sig == syscall.SIGCHLD {
			reapChildren()
			continue
		}
		os.Exit(0)
	}
}

// reapChildren collects every exited child so none stays a zombie (the sandbox is PID 1 when the
// pod shares its process namespace).
func reapChildren() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
		if pid <= 0 || err != nil {
			return
		}
	}
}
