package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/internal/cli"
)

// progress shows the library's progress snapshots on stderr: a live bar on
// a terminal, else a plain line every interval for runs that last that
// long. The percentage and the ETA come from package job, which weights
// each task by its estimated cost.
type progress struct {
	w        io.Writer
	interval time.Duration
	always   bool // --progress=on: also a final line
	snap     func() job.Progress

	mu     sync.Mutex // guards paused and the bar
	paused bool
	stop   chan struct{}
	wg     sync.WaitGroup
	bar    *progressbar.ProgressBar
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress returns nil when mode is off. snap gives the snapshots.
func newProgress(mode string, w io.Writer, terminal bool, interval time.Duration, snap func() job.Progress) *progress {
	if mode == "off" {
		return nil
	}
	p := &progress{w: w, interval: interval, always: mode == "on", snap: snap, stop: make(chan struct{})}
	if terminal {
		p.interval = 250 * time.Millisecond
		// The bar measures expected work in thousandths, like the
		// percentage of the plain lines; the description gives the tasks.
		p.bar = progressbar.NewOptions(barMax,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetWidth(24),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionThrottle(200*time.Millisecond),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionShowDescriptionAtLineEnd(),
		)
	}
	return p
}

// barMax is the bar's full scale.
const barMax = 1000

func (p *progress) begin() {
	if p == nil {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(p.interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.show()
			}
		}
	}()
}

// pause stops the reports and clears the bar, so that a message (the
// interrupt notice) stands on its own line.
func (p *progress) pause() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.paused = true
	if p.bar != nil {
		p.bar.Clear()
	}
}

// end stops the reports; the bar is cleared so that the result stands
// alone.
func (p *progress) end() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		p.bar.Clear()
		p.bar.Exit()
	} else if p.always && !p.paused {
		fmt.Fprintf(p.w, "progress: %s\n", p.status(p.snap()))
	}
}

func (p *progress) show() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.paused {
		return
	}
	s := p.snap()
	if p.bar != nil {
		p.bar.Describe(p.status(s))
		p.bar.Set(int(s.Fraction * barMax))
		return
	}
	fmt.Fprintf(p.w, "progress: %s\n", p.status(s))
}

// status is "1234/5000 tasks (24.7%), 1.20 G nodes/s, ETA 3m12s"; on the
// bar, which shows the share itself, without the percentage.
func (p *progress) status(s job.Progress) string {
	rate := cli.Rate(s.NodesPerSec) + " nodes/s"
	line := fmt.Sprintf("%d/%d tasks (%.1f%%), %s", s.Done, s.Tasks, 100*s.Fraction, rate)
	if p.bar != nil {
		line = fmt.Sprintf("%d/%d tasks, %s", s.Done, s.Tasks, rate)
	}
	if s.ETA > 0 {
		line += ", ETA " + s.ETA.Round(time.Second).String()
	}
	return line
}
