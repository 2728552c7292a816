package worker

import (
	"sync"
	"time"
)

// refusals slows a worker's pulling while all it is handed are tasks it
// cannot count (their jobs do not fit in its memory): each refusal in a
// row doubles a pause before its next fetch, up to maxRefusalPause. One
// lock.
type refusals struct {
	mu     sync.Mutex
	streak int
	until  time.Time
	told   map[string]bool
}

const maxRefusalPause = time.Second

// refused notes a task refused.
func (r *refusals) refused() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streak++
	r.until = time.Now().Add(min(50*time.Millisecond<<min(r.streak, 10), maxRefusalPause))
}

// counting notes a task taken: the pause is over.
func (r *refusals) counting() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.streak, r.until = 0, time.Time{}
}

// inARow is the number of tasks refused since the last one counted.
func (r *refusals) inARow() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streak
}

// pause is how long to wait before the next fetch.
func (r *refusals) pause() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return time.Until(r.until)
}

// first reports whether job id is refused for the first time (said once
// in the log, not once per task).
func (r *refusals) first(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.told[id] {
		return false
	}
	if r.told == nil {
		r.told = map[string]bool{}
	}
	r.told[id] = true
	return true
}

// failLimit is the number of counts in a row whose failure sets a worker
// aside: a machine whose every count fails (a broken kernel, memory
// errors) stops taking tasks instead of spending their deliveries.
const failLimit = 3
