package queenspage

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/web"
)

// The n-queens endpoints: the traced search for the animation, the
// comparison of the two row orders, and the live count.

// Bounds of the traced search: boards up to MaxTraceN (the whole trace of
// n = 12 is about two million steps, and a page of it is found by running
// the trace again from the start), at most MaxTracePage steps a request.
const (
	MaxTraceN        = 12
	MaxTracePage     = 20000
	DefaultTracePage = 5000
)

// traceRequest is the body of trace.
type traceRequest struct {
	N     int    `json:"n"`
	Order string `json:"order"`
	From  int    `json:"from"`
	Limit int    `json:"limit"`
}

// TracePage is the answer of trace: steps From to Next-1 of the search.
type TracePage struct {
	N     int    `json:"n"`
	Order string `json:"order"`
	From  int    `json:"from"`
	Next  int    `json:"next"`
	// Events are the steps, each [kind, row, col, depth]: kind 0 places a
	// queen on (row, col), 1 backtracks from row (no safe column left), 2
	// reports the solution on the board; depth is the number of queens
	// on the board after the step.
	Events [][4]int `json:"events"`
	// Done says the search ends with the last of these steps.
	Done bool `json:"done"`
}

func checkTraceArgs(n int, order string) (solutions.Order, *web.Error) {
	if n < 1 || n > MaxTraceN {
		return 0, web.BadRequest("n = %d: the animation handles 1 to %d (use the live count for larger boards)", n, MaxTraceN)
	}
	o, err := solutions.ParseOrder(order)
	if err != nil {
		return 0, web.BadRequest("%v", err)
	}
	return o, nil
}

func (p *page) trace(ctx context.Context, req *traceRequest) (TracePage, *web.Error) {
	o, e := checkTraceArgs(req.N, req.Order)
	if e != nil {
		return TracePage{}, e
	}
	limit := req.Limit
	if limit == 0 {
		limit = DefaultTracePage
	}
	if limit < 1 || limit > MaxTracePage {
		return TracePage{}, web.BadRequest("limit %d: want 1 to %d", limit, MaxTracePage)
	}
	if req.From < 0 {
		return TracePage{}, web.BadRequest("from %d: want 0 or more", req.From)
	}
	page := TracePage{N: req.N, Order: o.String(), From: req.From, Events: make([][4]int, 0, min(limit, 1024))}
	i := 0
	complete := true
	err := solutions.TraceOrder(req.N, o, 0, func(ev solutions.Event) bool {
		if i%4096 == 0 && ctx.Err() != nil {
			complete = false
			return false
		}
		if i >= req.From {
			if len(page.Events) == limit {
				complete = false
				return false
			}
			page.Events = append(page.Events, [4]int{int(ev.Kind), ev.Row, ev.Col, ev.Depth})
		}
		i++
		return true
	})
	if err != nil {
		return TracePage{}, web.BadRequest("%v", err)
	}
	if ctx.Err() != nil {
		return TracePage{}, web.Errorf(http.StatusServiceUnavailable, "request cancelled")
	}
	page.Done = complete
	page.Next = req.From + len(page.Events)
	return page, nil
}

// orderRequest is the body of orders.
type orderRequest struct {
	N int `json:"n"`
}

// orderCache keeps the summaries of whole traced searches (they depend on
// n and the order only).
type orderCache struct {
	mu sync.Mutex
	m  map[orderKey]OrderSummary
}

type orderKey struct {
	n     int
	order solutions.Order
}

// OrderSummary is the work of one whole traced search.
type OrderSummary struct {
	Order string `json:"order"`
	// Nodes is the number of queens placed.
	Nodes      uint64 `json:"nodes"`
	Backtracks uint64 `json:"backtracks"`
	Solutions  uint64 `json:"solutions"`
	// Steps is the number of events of the trace.
	Steps uint64 `json:"steps"`
}

// OrderComparison is the answer of orders.
type OrderComparison struct {
	N      int            `json:"n"`
	Orders []OrderSummary `json:"orders"`
	// Known is the number of solutions OEIS A000170 gives.
	Known uint64 `json:"known"`
}

func (p *page) compareOrders(_ context.Context, req *orderRequest) (OrderComparison, *web.Error) {
	if _, e := checkTraceArgs(req.N, ""); e != nil {
		return OrderComparison{}, e
	}
	known, _ := queens.Known(req.N)
	out := OrderComparison{N: req.N, Known: known}
	for _, o := range []solutions.Order{solutions.TopDown, solutions.MostConstrained} {
		out.Orders = append(out.Orders, p.orders.summary(req.N, o))
	}
	return out, nil
}

// summary runs (once per n and order) the whole traced search and counts
// its steps.
func (c *orderCache) summary(n int, o solutions.Order) OrderSummary {
	k := orderKey{n, o}
	c.mu.Lock()
	sum, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return sum
	}
	sum = OrderSummary{Order: o.String()}
	solutions.TraceOrder(n, o, 0, func(ev solutions.Event) bool {
		sum.Steps++
		switch ev.Kind {
		case solutions.Place:
			sum.Nodes++
		case solutions.Backtrack:
			sum.Backtracks++
		case solutions.Found:
			sum.Solutions++
		}
		return true
	})
	c.mu.Lock()
	if c.m == nil {
		c.m = map[orderKey]OrderSummary{}
	}
	c.m[k] = sum
	c.mu.Unlock()
	return sum
}

// countRequestQ is the body that starts a live count, and the body of
// estimate. N is kept raw, so that a missing n, a string or a fraction
// is named as such (not reported as "n = 0").
type countRequestQ struct {
	N json.RawMessage `json:"n"`
}

// boardSize reads the n of a live count: a whole number from 1 to
// queens.MaxN, in digits.
func boardSize(raw json.RawMessage) (int, *web.Error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return 0, web.BadRequest("n is missing: want a whole number from 1 to %d", queens.MaxN)
	}
	show := s
	if len(show) > 24 {
		show = show[:24] + "…"
	}
	if len(s) > 6 || strings.Trim(s, "0123456789") != "" {
		return 0, web.BadRequest("n = %s is not a board size: want a whole number from 1 to %d", show, queens.MaxN)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, web.BadRequest("n = %s is not a board size: want a whole number from 1 to %d", show, queens.MaxN)
	}
	if n > queens.MaxN {
		return 0, web.BadRequest("n = %d is too large: the counter handles 1 to %d", n, queens.MaxN)
	}
	return n, nil
}

func (p *page) startCount(_ context.Context, req *countRequestQ) (CountProgress, *web.Error) {
	n, e := boardSize(req.N)
	if e != nil {
		return CountProgress{}, e
	}
	return p.live.start(n, p.opt.Workers), nil
}

// EstimatedCoreHours are the CPU times, in hours of one core, that
// nqueens estimate gave for the counts from n = 19 on (RESULTS.md, "the
// cost per n": an AMD EPYC Zen 4 core, the build of 2026-12-02). The page
// warns with them before a count of hours.
var EstimatedCoreHours = map[int]float64{
	19: 0.00534, 20: 0.0279, 21: 0.225, 22: 1.82, 23: 14.9,
	24: 131, 25: 1078, 26: 51585, 27: 351000, 28: 13430719,
}

// CountEstimate is the answer of estimate: what a live count of N costs.
type CountEstimate struct {
	N int `json:"n"`
	// CoreHours is EstimatedCoreHours[N]; 0 where nothing was measured
	// (n up to 18 takes seconds, n above 28 more than Q(28)'s 13 million
	// core-hours).
	CoreHours float64 `json:"core_hours"`
	// Workers is the number of workers a live count runs on here.
	Workers int `json:"workers"`
	// BudgetSeconds is the most a live count may run.
	BudgetSeconds float64 `json:"budget_seconds"`
}

func (p *page) estimate(_ context.Context, req *countRequestQ) (CountEstimate, *web.Error) {
	n, e := boardSize(req.N)
	if e != nil {
		return CountEstimate{}, e
	}
	w := queens.Execution{Workers: p.opt.Workers}.Resolve().Workers // as the live count will run
	return CountEstimate{N: n, CoreHours: EstimatedCoreHours[n], Workers: w, BudgetSeconds: p.live.budget.Seconds()}, nil
}

type noBody struct{}

func (p *page) countStatus(_ context.Context, _ *noBody) (CountProgress, *web.Error) {
	return p.live.snapshot(true), nil
}

func (p *page) stopCount(_ context.Context, _ *noBody) (CountProgress, *web.Error) {
	p.live.stop(StopAsked)
	return p.live.snapshot(false), nil
}
