package web

import (
	"os/exec"
	"runtime"
)

// OpenBrowser asks the desktop to open url in the user's browser, with
// xdg-open (or the open of macOS, or Windows' URL handler), and returns at
// once. It reports false when there is no such program, and never fails
// otherwise: a server on a machine without a desktop just goes on, and
// the command has printed the URL anyway.
func OpenBrowser(url string) bool {
	var name string
	var args []string
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler"}
	default:
		name = "xdg-open"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return false
	}
	cmd := exec.Command(path, append(args, url)...)
	if err := cmd.Start(); err != nil {
		return false
	}
	go cmd.Wait() // reap it; its exit status does not matter
	return true
}
