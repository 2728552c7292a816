package worker

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// The metrics endpoint gives each job's progress in the Prometheus text
// format (read back here by Prometheus's own parser), and wants the token
// as a bearer token when the server has one.
func TestMetrics(t *testing.T) {
	const tok = "metrics-token-0123456789"
	srv := serve(t, server.Config{Token: tok, Metrics: "127.0.0.1:0"})
	c := connect(t, srv.URL(), client.Auth{Token: tok})
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{Verify: 10})
	get := func(auth string) (int, string) {
		req, _ := http.NewRequest("GET", srv.MetricsURL(), nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for _, auth := range []string{"", "Bearer wrong", tok} {
		if code, _ := get(auth); code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: HTTP %d, want 401", auth, code)
		}
	}
	code, body := get("Bearer " + tok)
	if code != http.StatusOK {
		t.Fatalf("HTTP %d: %s", code, body)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	families, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("not the text format: %v\n%s", err, body)
	}
	value := func(name string) float64 {
		f := families[name]
		if f == nil || len(f.Metric) != 1 {
			t.Fatalf("%s: %v", name, f)
		}
		m := f.Metric[0]
		if l := m.GetLabel(); len(l) == 0 || l[0].GetName() != "job_id" || l[0].GetValue() != sub.Job {
			t.Errorf("%s: labels %v", name, l)
		}
		return m.GetGauge().GetValue()
	}
	if v := value("nqcount_job_tasks"); v != float64(sub.Tasks) {
		t.Errorf("nqcount_job_tasks %g, want %d", v, sub.Tasks)
	}
	if v := value("nqcount_job_tasks_counted"); v != 0 {
		t.Errorf("nqcount_job_tasks_counted %g before any worker", v)
	}
	wc := connect(t, srv.URL(), client.Auth{Token: tok})
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		defer cancel()
		if _, err := Work(ctx, wc, Config{Execution: queens.Execution{Workers: 2}, ID: fmt.Sprintf("m%d", i), ExitWhenIdle: true, Logf: t.Logf}); err != nil && i == 0 {
			t.Fatal(err)
		}
	}
	_, body = get("Bearer " + tok)
	families, _ = p.TextToMetricFamilies(strings.NewReader(body))
	if v := value("nqcount_job_tasks_counted"); v != float64(sub.Tasks) {
		t.Errorf("nqcount_job_tasks_counted %g after the workers, want %d", v, sub.Tasks)
	}
	if v, chosen := value("nqcount_job_tasks_verified"), value("nqcount_job_tasks_verify_chosen"); v != chosen || chosen != float64(sub.VerifyTasks) {
		t.Errorf("verified %g of %g chosen, want %d of %d", v, chosen, sub.VerifyTasks, sub.VerifyTasks)
	}
}

// 40 s after both workers were gone /metrics still
// said nqcount_workers_active 2: liveness was judged against the latest
// report, which was theirs. It is judged by the server's clock now.
func TestMetricsWorkerGone(t *testing.T) {
	srv := serve(t, server.Config{Metrics: "127.0.0.1:0"})
	c := connect(t, srv.URL(), client.Auth{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	kv, err := jsOf(c).KeyValue(ctx, queue.WorkersBucket)
	if err != nil {
		t.Fatal(err)
	}
	// A worker's last report; then it dies without saying so.
	rep, _ := json.Marshal(queue.Seen{ID: "died", Slots: 2})
	if _, err := kv.Put(ctx, "died", rep); err != nil {
		t.Fatal(err)
	}
	scrape := func() string {
		resp, err := http.Get(srv.MetricsURL())
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	if m := scrape(); !strings.Contains(m, "nqcount_workers_active 1") || !strings.Contains(m, "nqcount_queue_up 1") {
		t.Fatalf("a worker that just reported is not active:\n%s", m)
	}
	time.Sleep(queue.ActiveWithin + time.Second)
	m := scrape()
	if !strings.Contains(m, "nqcount_workers_active 0") || !strings.Contains(m, `nqcount_worker_last_seen_seconds{worker="died"}`) {
		t.Fatalf("a worker silent for %v is still active:\n%s", queue.ActiveWithin+time.Second, m)
	}
	for _, want := range []string{"go_goroutines", "process_cpu_seconds_total", "go_build_info", "nqcount_tasks_redelivered"} {
		if !strings.Contains(m, want) {
			t.Errorf("the metrics lack %s", want)
		}
	}
}
