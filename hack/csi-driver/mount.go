// Bind mounts for the node plugin, idempotent as CSI requires (a repeated call with the same arguments succeeds).
package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// bindMount mounts source at target (created if missing), read-only if asked; nothing is done when target is a mount point already.
func bindMount(source, target string, readonly bool) error {
	if err := os.MkdirAll(target, 0o750); err != nil {
		return fmt.Errorf("creating %s: %w", target, err)
	}
	mounted, err := isMountPoint(target)
	if err != nil || mounted {
		return err
	}
	if err := syscall.Mount(source, target, "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind-mounting %s at %s: %w", source, target, err)
	}
	if readonly {
		// A bind mount takes MS_RDONLY only on a remount (mount(2)).
		if err := syscall.Mount("", target, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			_ = syscall.Unmount(target, 0)
			return fmt.Errorf("remounting %s read-only: %w", target, err)
		}
	}
	return nil
}

// unmount unmounts target if it is a mount point; a missing path or one that is not mounted is fine.
func unmount(target string) error {
	mounted, err := isMountPoint(target)
	if err != nil || !mounted {
		return err
	}
	if err := syscall.Unmount(target, 0); err != nil && !errors.Is(err, syscall.EINVAL) {
		return fmt.Errorf("unmounting %s: %w", target, err)
	}
	return nil
}

// isMountPoint reports whether path is a mount point of this mount namespace (/proc/self/mountinfo, field 5).
func isMountPoint(path string) (bool, error) {
	clean := filepath.Clean(path)
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false, err
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64*1024), 1024*1024)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) > 4 && unescapeMountPath(fields[4]) == clean {
			return true, nil
		}
	}
	return false, scanner.Err()
}

// unescapeMountPath undoes mountinfo's octal escapes of space, tab, newline and backslash (\040, \011, \012, \134).
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	r := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`)
	return r.Replace(s)
}
