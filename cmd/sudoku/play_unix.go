//go:build unix && !linux

package main

import (
	"os/exec"
	"syscall"
)

// detach puts sudoku-play in a process group of its own, so that a
// terminal's Ctrl-C reaches it once (passed on by play) rather than twice
// (the second would kill it).
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
