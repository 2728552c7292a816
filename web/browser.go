package web

import (
	"context"
	"fmt"
	"io"
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

// Launch is what the commands that serve a page do: it listens on addr
// (see Listen), writes the page's URL as one line to out, says on notef
// where it serves and how to stop, opens the URL in a browser when asked
// (a missing browser is only a note), and serves until ctx is cancelled.
// It returns an error if it cannot listen, write the URL or serve.
func Launch(ctx context.Context, addr, page string, opt Options, openBrowser bool, out io.Writer, notef func(format string, args ...any)) error {
	srv, err := Listen(addr, opt)
	if err != nil {
		return err
	}
	url := srv.URL(page)
	if srv.Loopback() {
		notef("serving on %s (loopback: this machine only); Ctrl-C stops", srv.Addr())
	} else {
		notef("serving on %s, open to other machines: every request needs the token in the URL; Ctrl-C stops", srv.Addr())
	}
	if _, err := io.WriteString(out, url+"\n"); err != nil {
		srv.Close()
		return fmt.Errorf("writing the URL: %w", err)
	}
	if openBrowser && !OpenBrowser(url) {
		notef("no xdg-open or open here to start a browser: open the URL above")
	}
	return srv.Serve(ctx)
}
