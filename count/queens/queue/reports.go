package queue

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Seen is a worker's last report, in bucket nqcount-workers.
type Seen struct {
	ID    string `json:"id"`
	Host  string `json:"host"`
	PID   int    `json:"pid"`
	Slots int    `json:"slots"`
	// Memory is what the worker's counts may take, in bytes
	// (worker.Config.Memory): a task goes only to a worker that can
	// count it.
	Memory uint64 `json:"memory,omitempty"`
	// SetAside says why the worker set itself aside (ErrSetAside), if
	// it did.
	SetAside string    `json:"set_aside,omitempty"`
	Kernel   string    `json:"kernel"`
	Program  string    `json:"program"`
	Started  time.Time `json:"started"`
	// Time is the worker's clock at the report, for information: the
	// queue's readers time reports by the server's clock.
	Time time.Time `json:"time"`
	// Held lists the tasks held now, as JOB.ID.
	Held    []string `json:"held"`
	Counted int      `json:"counted"`
	// Refused, Failed and Conflicts count the tasks the worker refused,
	// the counts that failed on it and its verifications that disagreed
	// with another worker's result, since it started.
	Refused   int `json:"refused,omitempty"`
	Failed    int `json:"failed,omitempty"`
	Conflicts int `json:"conflicts,omitempty"`
	// Nodes counts the nodes this worker has visited: the finished
	// tasks', the running ones' so far, and abandoned ones'.
	Nodes uint64 `json:"nodes"`
	// Jobs is the worker's recent work on each job.
	Jobs    []JobWork `json:"jobs,omitempty"`
	Stopped bool      `json:"stopped,omitempty"`
}

// JobWork is a worker's work on one job, in its report: what a reader
// needs for a rate and an ETA while tasks run, however long they are.
type JobWork struct {
	Job string `json:"job"`
	// Held is the number of the job's tasks this worker holds; Running
	// those it is counting now.
	Held    int `json:"held"`
	Running int `json:"running"`
	// Nodes counts the nodes visited in the job's tasks by this worker,
	// the running ones' so far included; Live is the running tasks' part.
	Nodes uint64 `json:"nodes"`
	Live  uint64 `json:"live_nodes"`
	// Rate is Nodes' growth per second over the last RateWindow (0
	// until the worker has watched for a second).
	Rate float64 `json:"nodes_per_second"`
	// Since is the time from this worker's first task of the job to the
	// report, in seconds: a duration, so that it needs no agreement
	// between clocks.
	Since float64 `json:"since_seconds"`
}

// Job returns the worker's work on job id, or nil.
func (s *Seen) Job(id string) *JobWork {
	for i := range s.Jobs {
		if s.Jobs[i].Job == id {
			return &s.Jobs[i]
		}
	}
	return nil
}

const (
	// ReportEvery is how often a worker puts its report.
	ReportEvery = time.Second
	// ActiveWithin: a worker that reported within this time, by the
	// server's clock, and has not stopped, is active.
	ActiveWithin = 5 * ReportEvery
	// WorkerTTL is how long the bucket keeps a report: a worker silent
	// that long is forgotten.
	WorkerTTL = time.Minute
	// RateWindow is the span of a worker's rate.
	RateWindow = 30 * time.Second
)

// Check reports why a report read from the bucket is not one a worker
// of ours wrote, or nil; text fields it makes safe to show.
func (s *Seen) Check() error {
	if err := CheckWorkerID(s.ID); err != nil {
		return err
	}
	s.Host, s.Kernel, s.Program = CleanText(Clip(s.Host, 256)), CleanText(Clip(s.Kernel, 256)), CleanText(Clip(s.Program, 256))
	s.SetAside = CleanText(s.SetAside)
	for i := range s.Held {
		s.Held[i] = CleanText(Clip(s.Held[i], 160))
	}
	for i := range s.Jobs {
		if CheckJobID(s.Jobs[i].Job) != nil {
			s.Jobs[i].Job = CleanText(Clip(s.Jobs[i].Job, 140))
		}
	}
	return nil
}

// WorkerToken is a worker's name in subjects and consumer names: worker ids
// may hold dots and slashes, which those cannot.
func WorkerToken(workerID string) string {
	h := sha256.Sum256([]byte(workerID))
	return "w" + hex.EncodeToString(h[:8])
}
