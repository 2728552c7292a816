package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/nqcount/nqcount/count"
)

// progress reports how far a count is, on stderr: a live bar on a
// terminal, else a plain line every interval for runs that last that long.
// Work is measured by the plan's per-task estimates, so the percentage and
// the ETA are not fooled by tasks of very different sizes.
type progress struct {
	w        io.Writer
	interval time.Duration
	always   bool // --progress=on: also a final line

	tasks    int
	est      []uint64
	estTotal uint64
	start    time.Time

	done     atomic.Int64  // tasks finished, resumed included
	estDone  atomic.Uint64 // estimate of the work finished, resumed included
	estNew   atomic.Uint64 // estimate of the work finished in this run
	nodesNew atomic.Uint64

	stop chan struct{}
	wg   sync.WaitGroup
	bar  *progressbar.ProgressBar
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress returns nil when mode is off, or auto and nothing would be
// shown. est are the estimates of all the plan's tasks, ids the ones this
// run covers (resumed ones included).
func newProgress(mode string, w io.Writer, terminal bool, interval time.Duration, est []uint64, ids []int) *progress {
	if mode == "off" {
		return nil
	}
	p := &progress{w: w, interval: interval, always: mode == "on", tasks: len(ids), est: est, start: time.Now(), stop: make(chan struct{})}
	for _, id := range ids {
		p.estTotal += est[id]
	}
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

// resumed counts a task finished by an earlier run.
func (p *progress) resumed(id int) {
	if p != nil {
		p.done.Add(1)
		p.estDone.Add(p.est[id])
	}
}

// add counts a task finished in this run; safe for concurrent use.
func (p *progress) add(id int, r count.Result) {
	if p != nil {
		p.done.Add(1)
		p.estDone.Add(p.est[id])
		p.estNew.Add(p.est[id])
	}
}

// addNodes counts the nodes of a slice of a running task (the engine's
// OnProgress), so that the rate moves while every task is long; the
// slices of a finished task add up to its nodes.
func (p *progress) addNodes(n uint64) { p.nodesNew.Add(n) }

func (p *progress) begin() {
	if p == nil {
		return
	}
	p.start = time.Now()
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

// end stops the reports; the bar is cleared so that the result stands
// alone.
func (p *progress) end() {
	if p == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	if p.bar != nil {
		p.bar.Clear()
		p.bar.Exit()
	} else if p.always {
		fmt.Fprintf(p.w, "progress: %s\n", p.status())
	}
}

func (p *progress) show() {
	if p.bar != nil {
		p.bar.Describe(p.status())
		p.bar.Set(int(p.fraction() * barMax))
		return
	}
	fmt.Fprintf(p.w, "progress: %s\n", p.status())
}

// barMax is the bar's full scale.
const barMax = 1000

// fraction is the part of the expected work done, resumed tasks included.
func (p *progress) fraction() float64 {
	if p.estTotal == 0 {
		return 1
	}
	return float64(p.estDone.Load()) / float64(p.estTotal)
}

// status is "1234/5000 tasks (24.7%), 1.20 G nodes/s, ETA 3m12s".
func (p *progress) status() string {
	el := time.Since(p.start)
	done, estDone, estNew := p.done.Load(), p.estDone.Load(), p.estNew.Load()
	rate := humanRate(float64(p.nodesNew.Load())/el.Seconds()) + " nodes/s"
	s := fmt.Sprintf("%d/%d tasks (%.1f%%), %s", done, p.tasks, 100*p.fraction(), rate)
	if p.bar != nil {
		s = fmt.Sprintf("%d/%d tasks, %s", done, p.tasks, rate)
	}
	if estNew > 0 && estDone < p.estTotal {
		eta := time.Duration(float64(el) * float64(p.estTotal-estDone) / float64(estNew))
		s += ", ETA " + eta.Round(time.Second).String()
	}
	return s
}
