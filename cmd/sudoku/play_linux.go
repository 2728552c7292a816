package main

import (
	"os/exec"
	"syscall"
)

// detach puts sudoku-play in a process group of its own, so that a
// terminal's Ctrl-C reaches it once (passed on by play) rather than twice
// (the second would kill it), and has the kernel stop it if play is
// killed, so that no server is left behind.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGTERM}
}
