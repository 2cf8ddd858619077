package main

import (
	"testing"
	"time"
)

func TestSchedule(t *testing.T) {
	cases := []struct {
		text    string
		elapsed time.Duration
		failing bool
	}{
		{"", time.Hour, false},
		{"after=20s", 19 * time.Second, false},
		{"after=20s", 20 * time.Second, true},
		{"after=20s", time.Hour, true},
		{"after=20s,for=10s", 29 * time.Second, true},
		{"after=20s,for=10s", 30 * time.Second, false},
		{"after=0s,for=5s,every=30s", 4 * time.Second, true},
		{"after=0s,for=5s,every=30s", 6 * time.Second, false},
		{"after=0s,for=5s,every=30s", 31 * time.Second, true},
	}
	for _, c := range cases {
		s, err := parseSchedule(c.text)
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if got := s.failing(c.elapsed); got != c.failing {
			t.Errorf("%q at %s: failing %v, want %v", c.text, c.elapsed, got, c.failing)
		}
	}
	for _, bad := range []string{"after", "after=x", "later=1s", "after=1s,every=10s", "after=1s,for=20s,every=10s"} {
		if _, err := parseSchedule(bad); err == nil {
			t.Errorf("%q: accepted", bad)
		}
	}
}
