package queue

import (
	"context"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The queue's metrics, in the Prometheus text format (scripts/README.md
// has an example scrape). Each scrape reads the jobs and the workers'
// reports from the server: the counts of stored records, as Jobs gives
// them, and the rates the workers last reported.
var (
	jobLabels    = []string{"job_id"}
	mJobTasks    = prometheus.NewDesc("nqcount_job_tasks", "Tasks (units) of the job.", jobLabels, nil)
	mJobCounted  = prometheus.NewDesc("nqcount_job_tasks_counted", "Tasks of the job with a stored count record.", jobLabels, nil)
	mJobFailed   = prometheus.NewDesc("nqcount_job_tasks_failed", "Tasks of the job with a failure record and no count.", jobLabels, nil)
	mJobChosen   = prometheus.NewDesc("nqcount_job_tasks_verify_chosen", "Tasks of the job chosen to be counted a second time.", jobLabels, nil)
	mJobVerified = prometheus.NewDesc("nqcount_job_tasks_verified", "Tasks of the job with a stored verify record.", jobLabels, nil)
	mJobRate     = prometheus.NewDesc("nqcount_job_nodes_per_second", "Nodes per second the active workers report on the job, over their last half-minute.", jobLabels, nil)
	mJobWorkers  = prometheus.NewDesc("nqcount_job_workers", "Active workers holding tasks of the job.", jobLabels, nil)
	mJobInfo     = prometheus.NewDesc("nqcount_job_info", "The job: board size, method and state (queued, running, failing, done, cancelled); always 1.", []string{"job_id", "n", "method", "state"}, nil)
	mWorkers     = prometheus.NewDesc("nqcount_workers_active", "Workers that reported within the last seconds and have not stopped.", nil, nil)
	mWorkerNodes = prometheus.NewDesc("nqcount_worker_nodes_total", "Nodes the worker has visited since it started.", []string{"worker"}, nil)
	mWorkerSlots = prometheus.NewDesc("nqcount_worker_slots", "Tasks the worker counts at once.", []string{"worker"}, nil)
)

// collector of the metrics: prometheus.Collector.
type metrics struct {
	c       *Client
	timeout time.Duration
}

func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{mJobTasks, mJobCounted, mJobFailed, mJobChosen, mJobVerified, mJobRate, mJobWorkers, mJobInfo, mWorkers, mWorkerNodes, mWorkerSlots} {
		ch <- d
	}
}

func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), m.timeout)
	defer cancel()
	jobs, err := m.c.Jobs(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(mJobTasks, err)
		return
	}
	reps, now, err := readReports(ctx, m.c.js)
	if err != nil && !errors.Is(err, context.Canceled) {
		ch <- prometheus.NewInvalidMetric(mWorkers, err)
		return
	}
	rate := map[string]float64{}
	working := map[string]int{}
	active := 0
	for _, r := range reps {
		if !r.active(now) {
			continue
		}
		active++
		ch <- prometheus.MustNewConstMetric(mWorkerNodes, prometheus.CounterValue, float64(r.Nodes), r.ID)
		ch <- prometheus.MustNewConstMetric(mWorkerSlots, prometheus.GaugeValue, float64(r.Slots), r.ID)
		for _, jw := range r.Jobs {
			rate[jw.Job] += jw.Rate
			if jw.Held > 0 {
				working[jw.Job]++
			}
		}
	}
	ch <- prometheus.MustNewConstMetric(mWorkers, prometheus.GaugeValue, float64(active))
	for _, j := range jobs {
		id := j.ID
		gauge := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, id)
		}
		gauge(mJobTasks, float64(j.Tasks))
		gauge(mJobCounted, float64(j.Counted))
		gauge(mJobFailed, float64(j.Failed))
		gauge(mJobChosen, float64(j.Chosen))
		gauge(mJobVerified, float64(j.Verified))
		gauge(mJobRate, rate[id])
		gauge(mJobWorkers, float64(working[id]))
		ch <- prometheus.MustNewConstMetric(mJobInfo, prometheus.GaugeValue, 1, id, strconv.Itoa(j.N), j.Method, j.State)
	}
}

// MetricsHandler returns the HTTP handler of the queue's metrics in the
// Prometheus text format: tasks, counted, failed, chosen for
// verification and verified per job, the job's rate and workers, and the
// active workers; each scrape reads them from the server. With a token,
// a request must show it as "Authorization: Bearer TOKEN" (Prometheus's
// authorization setting).
func (c *Client) MetricsHandler(token string) http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(&metrics{c: c, timeout: 20 * time.Second})
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError})
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="nqcount"`)
			http.Error(w, "the metrics need the server's token: Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// metricsServer serves MetricsHandler on addr (host:port; beyond loopback
// only with a token) at /metrics.
type metricsServer struct {
	srv *http.Server
	url string
}

func serveMetrics(c *Client, addr, token string) (*metricsServer, error) {
	h, p, err := checkAddr("--metrics", addr, token != "")
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", net.JoinHostPort(h, strconv.Itoa(p)))
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", c.MetricsHandler(token))
	s := &metricsServer{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, url: "http://" + l.Addr().String() + "/metrics"}
	go s.srv.Serve(l)
	return s, nil
}

func (s *metricsServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
}
