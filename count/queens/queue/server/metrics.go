package server

import (
	"context"
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
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

	mUp          = prometheus.NewDesc("nqcount_queue_up", "1 when the queue's JetStream answered this scrape, 0 when it did not (servers down, a cluster without quorum, a full store): the job and worker metrics are then absent.", nil, nil)
	mQuorum      = prometheus.NewDesc("nqcount_cluster_quorum", "1 when this server's cluster has the quorum of its servers (a JetStream leader), 0 when not; 1 for a server alone.", nil, nil)
	mPeers       = prometheus.NewDesc("nqcount_cluster_peers_reachable", "Other servers of the cluster this server has a route to.", nil, nil)
	mClusterSize = prometheus.NewDesc("nqcount_cluster_size", "Servers of the cluster, as JetStream knows them (0 for a server alone).", nil, nil)
	mStoreFull   = prometheus.NewDesc("nqcount_store_full", "1 while this server's JetStream cannot write its store (a full disk), else 0.", nil, nil)
	mSeenAgo     = prometheus.NewDesc("nqcount_worker_last_seen_seconds", "Seconds since the worker's last report, by the server's clock (a worker reports every second).", []string{"worker"}, nil)
	mRefused     = prometheus.NewDesc("nqcount_worker_refused_total", "Tasks the worker refused (they did not fit in its memory, or were of another program's plan).", []string{"worker"}, nil)
	mFailed      = prometheus.NewDesc("nqcount_worker_failed_total", "Counts that failed on the worker.", []string{"worker"}, nil)
	mConflicts   = prometheus.NewDesc("nqcount_worker_conflicts_total", "Verifications of the worker that disagreed with another worker's result (each asks a recount).", []string{"worker"}, nil)
	mSetAside    = prometheus.NewDesc("nqcount_worker_set_aside", "1 for a worker that set itself aside (its counts kept failing, or it was outvoted); it stays listed until its report expires.", []string{"worker"}, nil)
	mPending     = prometheus.NewDesc("nqcount_tasks_pending", "Count tasks waiting to be handed out.", nil, nil)
	mAckPending  = prometheus.NewDesc("nqcount_tasks_held", "Count tasks handed out and not yet acknowledged.", nil, nil)
	mRedelivered = prometheus.NewDesc("nqcount_tasks_redelivered", "Count tasks held or waiting that were handed out before (their worker died, failed or handed them back).", nil, nil)
	mDistrusted  = prometheus.NewDesc("nqcount_job_workers_distrusted", "Workers outvoted on a task of the job: their results are left out and counted again.", jobLabels, nil)
)

// collector of the metrics: prometheus.Collector. A scrape answers
// within scrapeWait whatever the queue's state: what JetStream does not
// answer in time is left out, and nqcount_queue_up says so.
type metrics struct {
	nc      *nats.Conn
	js      jetstream.JetStream
	timeout time.Duration
	health  func() healthState // the server's, if the handler is a server's
}

// scrapeWait bounds the queue's part of a scrape: a cluster without
// quorum does not answer, and the scrape must (Prometheus gives up after
// 10 s by default).
const scrapeWait = 3 * time.Second

func (m *metrics) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{mJobTasks, mJobCounted, mJobFailed, mJobChosen, mJobVerified, mJobRate, mJobWorkers, mJobInfo, mWorkers, mWorkerNodes, mWorkerSlots,
		mUp, mQuorum, mPeers, mClusterSize, mStoreFull, mSeenAgo, mRefused, mFailed, mConflicts, mSetAside, mPending, mAckPending, mRedelivered, mDistrusted} {
		ch <- d
	}
}

func (m *metrics) Collect(ch chan<- prometheus.Metric) {
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	b := func(ok bool) float64 {
		if ok {
			return 1
		}
		return 0
	}
	if m.health != nil {
		h := m.health()
		gauge(mQuorum, b(h.Quorum))
		gauge(mPeers, float64(h.Peers))
		gauge(mClusterSize, float64(h.Size))
		gauge(mStoreFull, b(h.DiskFull != ""))
	}
	ctx, cancel := context.WithTimeout(context.Background(), min(m.timeout, scrapeWait))
	defer cancel()
	jobs, err := layout.Jobs(ctx, m.nc, m.js)
	if err != nil {
		gauge(mUp, 0)
		return
	}
	reps, _, err := layout.ReadReports(ctx, m.js)
	if err != nil {
		gauge(mUp, 0)
		return
	}
	now, err := layout.ServerNow(ctx, m.js)
	if err != nil {
		gauge(mUp, 0)
		return
	}
	gauge(mUp, 1)
	if ci, err := m.js.Consumer(ctx, queue.TasksStream, queue.WorkConsumer); err == nil {
		if info, err := ci.Info(ctx); err == nil {
			gauge(mPending, float64(info.NumPending))
			gauge(mAckPending, float64(info.NumAckPending))
			gauge(mRedelivered, float64(info.NumRedelivered))
		}
	}
	rate := map[string]float64{}
	working := map[string]int{}
	active := 0
	for _, r := range reps {
		gauge(mSeenAgo, max(now.Sub(r.At).Seconds(), 0), r.ID)
		ch <- prometheus.MustNewConstMetric(mRefused, prometheus.CounterValue, float64(r.Refused), r.ID)
		ch <- prometheus.MustNewConstMetric(mFailed, prometheus.CounterValue, float64(r.Failed), r.ID)
		ch <- prometheus.MustNewConstMetric(mConflicts, prometheus.CounterValue, float64(r.Conflicts), r.ID)
		gauge(mSetAside, b(r.SetAside != ""), r.ID)
		if !r.Active(now) {
			continue
		}
		active++
		ch <- prometheus.MustNewConstMetric(mWorkerNodes, prometheus.CounterValue, float64(r.Nodes), r.ID)
		gauge(mWorkerSlots, float64(r.Slots), r.ID)
		for _, jw := range r.Jobs {
			rate[jw.Job] += jw.Rate
			if jw.Held > 0 {
				working[jw.Job]++
			}
		}
	}
	gauge(mWorkers, float64(active))
	for _, j := range jobs {
		id := j.ID
		gauge(mJobTasks, float64(j.Tasks), id)
		gauge(mJobCounted, float64(j.Counted), id)
		gauge(mJobFailed, float64(j.Failed), id)
		gauge(mJobChosen, float64(j.Chosen), id)
		gauge(mJobVerified, float64(j.Verified), id)
		gauge(mJobRate, rate[id], id)
		gauge(mJobWorkers, float64(working[id]), id)
		gauge(mDistrusted, float64(len(j.Distrusted)), id)
		ch <- prometheus.MustNewConstMetric(mJobInfo, prometheus.GaugeValue, 1, id, strconv.Itoa(j.N), j.Method, j.State)
	}
}

// metricsHandler returns the HTTP handler of the queue's metrics in the
// Prometheus text format: tasks, counted, failed, chosen for
// verification and verified per job, the job's rate and workers, and the
// active workers, with the server's health, if any; the Go runtime's and
// the process's metrics and the build's are beside the queue's. Each
// scrape reads them from the server. With a token, a request must show
// it as "Authorization: Bearer TOKEN" (Prometheus's authorization
// setting).
func metricsHandler(nc *nats.Conn, token string, health func() healthState) (http.Handler, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(&metrics{nc: nc, js: js, timeout: 20 * time.Second, health: health},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewBuildInfoCollector())
	h := promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.HTTPErrorOnError})
	if token == "" {
		return h, nil
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="nqcount"`)
			http.Error(w, "the metrics need the server's token: Authorization: Bearer TOKEN", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}), nil
}

// metricsServer serves metricsHandler on addr (host:port; beyond loopback
// only with a token) at /metrics.
type metricsServer struct {
	srv *http.Server
	url string
}

func serveMetrics(nc *nats.Conn, addr, token string, health func() healthState) (*metricsServer, error) {
	h, p, err := checkAddr("--metrics", addr, token != "")
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", net.JoinHostPort(h, strconv.Itoa(p)))
	if err != nil {
		return nil, err
	}
	mh, err := metricsHandler(nc, token, health)
	if err != nil {
		l.Close()
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", mh)
	s := &metricsServer{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, url: "http://" + l.Addr().String() + "/metrics"}
	go s.srv.Serve(l)
	return s, nil
}

func (s *metricsServer) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.srv.Shutdown(ctx)
}
