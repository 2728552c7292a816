//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
)

// The files the queue commands' flags name are read bounded, each bad one
// refused with one line naming its flag (they were once read whole,
// deaf to Ctrl-C, and a long or binary token held serve for seconds).
func TestQueueFlagFilesBounded(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sparse := filepath.Join(dir, "sparse")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 40)
	f.Close()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	junk := write("junk", bytes.Repeat([]byte{0xff, 0x00, 0x17}, 10))
	long := write("long", bytes.Repeat([]byte("x"), 2000))
	empty := write("empty", []byte("\n\n"))
	notes := write("notes", []byte("these are my notes\n"))
	// A token file every user may read was taken.
	open := write("open", []byte("a-fine-token-0123456789\n"))
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	client := []string{"status", "q10-x", "--server", "nats://127.0.0.1:1"}
	serve := []string{"serve", "--data", filepath.Join(dir, "data"), "--listen", "127.0.0.1:0"}
	for _, tc := range []struct {
		base       []string
		flag, file string
		want       string
	}{
		{client, "--token-file", sparse, "--token-file: " + sparse + " is 1 TiB, more than a token file can be (4 KiB)"},
		{client, "--token-file", "/dev/zero", "--token-file: /dev/zero holds more than a token file can (4 KiB)"},
		{client, "--token-file", fifo, "--token-file " + fifo + " is empty"},
		{client, "--token-file", empty, "--token-file " + empty + " is empty"},
		{client, "--token-file", junk, "--token-file " + junk + ": the token holds byte 0xff at 0"},
		{client, "--token-file", long, "--token-file " + long + ": the token has 2000 characters, more than a token can (1024)"},
		{client, "--creds", sparse, "--creds: " + sparse + " is 1 TiB, more than a NATS credentials file can be (64 KiB)"},
		{client, "--creds", notes, "--creds: not a NATS credentials file"},
		{client, "--tls-ca", "/dev/zero", "--tls-ca: /dev/zero holds more than a PEM file of certificates can (1 MiB)"},
		{client, "--tls-ca", notes, "--tls-ca: no PEM certificate in it"},
		{append(client, "--tls-key", notes), "--tls-cert", notes, "--tls-cert, --tls-key: not a PEM certificate and its key"},
		{client, "--token-file", open, "--token-file " + open + " is readable by every user of this machine (mode 0644)"},
		{serve, "--token-file", open, "--token-file " + open + " is readable by every user of this machine (mode 0644)"},
		{serve, "--token-file", junk, "--token-file " + junk + ": the token holds byte 0xff at 0"},
		{serve, "--token-file", long, "the token has 2000 characters"},
		{serve, "--token", strings.Repeat("9", 100000), "--token: the token has 100000 characters"},
		{serve, "--tls-cert", sparse, "--tls-cert: " + sparse + " is 1 TiB, more than a PEM certificate file can be (1 MiB)"},
		{append(serve, "--tls-cert", notes), "--tls-key", "/dev/zero", "--tls-key: /dev/zero holds more than a PEM key file can (1 MiB)"},
		{append(serve, "--tls-cert", notes), "--tls-key", notes, "--tls-cert, --tls-key: not a PEM certificate and its key"},
		{serve, "--tls-client-ca", fifo, "--tls-client-ca " + fifo + " is empty"},
	} {
		args := append(append([]string(nil), tc.base...), tc.flag, tc.file)
		start := time.Now()
		code, out, errs := runCLI(args...)
		if code != cli.ExitUsage || out != "" || strings.Count(errs, "\n") != 1 || !strings.HasPrefix(errs, "nqueens: ") || !strings.Contains(errs, tc.want) {
			t.Errorf("%s %s %s: exit %d, stdout %q, stderr %q; want %d and one line with %q", tc.base[0], tc.flag, clip(tc.file), code, out, errs, cli.ExitUsage, tc.want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s %s %s: took %v", tc.base[0], tc.flag, clip(tc.file), d)
		}
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// A FIFO whose writer never writes holds the read until the command is
// interrupted, which ends it at once.
func TestQueueFlagFileInterrupted(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, args := range [][]string{
		{"work", "--server", "nats://127.0.0.1:1", "--token-file", fifo},
		{"submit", "10", "--server", "nats://127.0.0.1:1", "--creds", fifo},
		{"jobs", "--server", "nats://127.0.0.1:1", "--tls-ca", fifo},
		{"serve", "--data", filepath.Join(dir, "data"), "--listen", "127.0.0.1:0", "--tls-cert", fifo, "--tls-key", fifo},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		var out, errb bytes.Buffer
		start := time.Now()
		code := app.Run(ctx, &cli.Env{Stdout: &out, Stderr: &errb}, args)
		cancel()
		if d := time.Since(start); code != cli.ExitInterrupted || errb.String() != "nqueens: interrupted\n" || d > 5*time.Second {
			t.Errorf("%s: exit %d after %v, stderr %q; want %d soon after 200ms", strings.Join(args, " "), code, d, errb.String(), cli.ExitInterrupted)
		}
	}
}
