//go:build linux

package hostile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// full runs the whole table; without it, the quick cases.
var full = os.Getenv("NQCOUNT_HOSTILE") == "1"

// world is what every case shares: the binaries, the limits and our own
// outputs to edit.
type world struct {
	root string
	bin  map[string]string // program name → binary
	lim  Limits
	idle uint64 // the largest address space an idle command takes
	fx   fixtures
	env  []string
}

// fixtures are files the commands wrote, made once: the inputs of the
// "edited" class and the companions of a case (the other shard).
type fixtures struct {
	s0, s1  string            // shards 0/2 and 1/2 of n = 10
	journal string            // the complete checkpoint of count 10
	export  string            // an export of a queued job of n = 10
	saved   map[string]string // a saved game per format (line, grid, json)
	puzzles string            // puzzles, one a line
	hard    string            // a puzzle file whose count runs for long
}

var (
	w        *world
	worldErr error
	once     sync.Once
)

// setUp makes the world once (the binaries, the limits, the fixtures),
// or skips the test under -short: it builds and starts processes.
func setUp(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binaries")
	}
	once.Do(func() { w, worldErr = newWorld() })
	if worldErr != nil {
		t.Fatal(worldErr)
	}
}

func TestMain(m *testing.M) {
	// A harness started with SIGHUP ignored (under nohup, say) would pass
	// the ignoring on to the commands it runs, which then lose an early
	// SIGHUP, as a command under nohup should. Catching it here gives
	// them the default disposition, as under a terminal.
	if signal.Ignored(syscall.SIGHUP) {
		signal.Notify(make(chan os.Signal, 1), syscall.SIGHUP)
	}
	code := m.Run()
	if w != nil {
		os.RemoveAll(w.root)
	}
	os.Exit(code)
}

func newWorld() (*world, error) {
	root, err := os.MkdirTemp("", "hostile")
	if err != nil {
		return nil, err
	}
	w := &world{root: root, bin: map[string]string{}}
	// Children run without the test's environment surprises: no token, no
	// server, and two cores' worth of threads whatever the machine.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NQCOUNT_") && !strings.HasPrefix(kv, "GOMAXPROCS=") &&
			!strings.HasPrefix(kv, "SLURM_") && !strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") {
			w.env = append(w.env, kv)
		}
	}
	w.env = append(w.env, "GOMAXPROCS=2", "HOME="+root)
	for _, prog := range []string{"nqueens", "sudoku", "sudoku-play"} {
		out := filepath.Join(root, "bin", prog)
		// Without cgo: the binaries then reserve the same address space
		// on every machine (cgo's threads each reserve 8 MiB of stack and
		// 64 MiB of malloc arena).
		cmd := exec.Command("go", "build", "-o", out, "github.com/nqcount/nqcount/cmd/"+prog)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("go build %s: %v\n%s", prog, err, b)
		}
		w.bin[prog] = out
	}
	// The limit: what an idle command reserves, plus a GiB to work in.
	for _, args := range [][]string{{"nqueens", "watch", "8", "--no-browser"}, {"sudoku", "play", "--no-browser"}} {
		v, err := w.idleSize(args)
		if err != nil {
			return nil, err
		}
		w.idle = max(w.idle, v)
	}
	w.lim = Limits{AddressSpace: (w.idle + 1<<30 + 64<<20 - 1) &^ (64<<20 - 1), Memory: 1 << 30, Answer: time.Second}
	if err := w.makeFixtures(); err != nil {
		return nil, err
	}
	return w, nil
}

// idleSize starts a server command, waits for its URL and returns the
// address space it reserved (VmPeak).
func (w *world) idleSize(args []string) (uint64, error) {
	cmd := exec.Command(w.bin[args[0]], args[1:]...)
	cmd.Env = w.env
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	line := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		line <- sc.Scan()
		io.Copy(io.Discard, out)
	}()
	select {
	case <-line:
	case <-time.After(30 * time.Second):
		return 0, fmt.Errorf("%q printed no URL", args)
	}
	time.Sleep(200 * time.Millisecond)
	v := Status(cmd.Process.Pid, "VmPeak")
	if v == 0 {
		return 0, fmt.Errorf("%q: no VmPeak in /proc", args)
	}
	return v, nil
}

// run runs a command of ours without limits, for the fixtures.
func (w *world) run(prog string, args ...string) ([]byte, error) {
	cmd := exec.Command(w.bin[prog], args...)
	cmd.Env, cmd.Dir = w.env, w.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %q: %v: %s", prog, args, err, stderr.String())
	}
	return out, nil
}

func (w *world) makeFixtures() error {
	dir := filepath.Join(w.root, "fixtures")
	os.MkdirAll(dir, 0o755)
	f := &w.fx
	f.s0, f.s1 = filepath.Join(dir, "s0.json"), filepath.Join(dir, "s1.json")
	f.journal = filepath.Join(dir, "q10.journal")
	for i, out := range []string{f.s0, f.s1} {
		if _, err := w.run("nqueens", "count", "10", "--shard", fmt.Sprintf("%d/2", i), "--out", out); err != nil {
			return err
		}
	}
	if _, err := w.run("nqueens", "count", "10", "--checkpoint", f.journal); err != nil {
		return err
	}
	var err error
	if f.export, err = w.makeExport(dir); err != nil {
		return err
	}
	out, err := w.run("sudoku", "generate", "--count", "3", "--difficulty", "hidden", "--seed", "7")
	if err != nil {
		return err
	}
	f.puzzles = filepath.Join(dir, "puzzles.txt")
	os.WriteFile(f.puzzles, out, 0o644)
	// The empty grid: about 6.7e21 solutions, a count that runs until
	// stopped.
	f.hard = filepath.Join(dir, "empty.txt")
	os.WriteFile(f.hard, []byte(strings.Repeat(".", 81)+"\n"), 0o644)
	f.saved, err = savedGames(dir)
	return err
}

// makeExport counts n = 10 through the queue (serve, submit, work) and
// exports the job.
func (w *world) makeExport(dir string) (string, error) {
	srv := exec.Command(w.bin["nqueens"], "serve", "--data", filepath.Join(dir, "queue"), "--listen", "127.0.0.1:0")
	srv.Env = w.env
	out, err := srv.StdoutPipe()
	if err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	srv.Stderr = &stderr
	if err := srv.Start(); err != nil {
		return "", err
	}
	defer func() {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
	}()
	url := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Scan()
		url <- strings.TrimSpace(sc.Text())
		io.Copy(io.Discard, out)
	}()
	var u string
	select {
	case u = <-url:
	case <-time.After(time.Minute):
		return "", fmt.Errorf("serve printed no URL: %s", stderr.String())
	}
	b, err := w.run("nqueens", "submit", "10", "--server", u, "--json")
	if err != nil {
		return "", err
	}
	var sub struct{ Job string }
	if err := json.Unmarshal(b, &sub); err != nil || sub.Job == "" {
		return "", fmt.Errorf("submit --json printed %q: %v", b, err)
	}
	if _, err := w.run("nqueens", "work", "--server", u, "--exit-when-idle", "--workers", "1"); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "export.json")
	if _, err := w.run("nqueens", "export", sub.Job, "--server", u, "--out", path); err != nil {
		return "", err
	}
	return path, nil
}

// savedGames saves a game in every format through the web API, as the
// page does.
func savedGames(dir string) (map[string]string, error) {
	const puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	srv := httptest.NewServer(web.New(web.Options{Pages: []*web.Page{sudokupage.New(sudokupage.Options{}), queenspage.New(queenspage.Options{})}}))
	defer srv.Close()
	marks := make([]string, 81)
	marks[1], marks[2] = "26", "139"
	progress := []byte(puzzle)
	progress[1] = '1'
	out := map[string]string{}
	for _, f := range []string{"line", "grid", "json"} {
		body, _ := json.Marshal(map[string]any{"format": f, "puzzle": puzzle, "progress": string(progress), "marks": marks,
			"seconds": 125, "seed": "42", "level": "hard", "symmetry": "none", "index": 2})
		resp, err := http.Post(srv.URL+"/api/sudoku/save", "application/json", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		var file struct{ Text string }
		err = json.NewDecoder(resp.Body).Decode(&file)
		resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || file.Text == "" {
			return nil, fmt.Errorf("save %s: %d %v", f, resp.StatusCode, err)
		}
		path := filepath.Join(dir, "saved."+f)
		os.WriteFile(path, []byte(file.Text), 0o644)
		out[f] = path
	}
	return out, nil
}
