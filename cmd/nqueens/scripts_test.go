package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

// The Kubernetes manifests in scripts/ parse as YAML, name the image the
// Dockerfile builds, and run nqueens subcommands with flags that exist.
// (Docker and a cluster are not available to the tests: this is as far
// as they can check.)
func TestKubernetesManifests(t *testing.T) {
	docker, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	image := regexp.MustCompile(`docker build -t (\S+) \.`).FindSubmatch(docker)
	if image == nil {
		t.Fatal("the Dockerfile does not say which image it builds")
	}
	files, _ := filepath.Glob("../../scripts/*.yaml")
	if len(files) < 2 {
		t.Fatalf("manifests: %v", files)
	}
	kinds := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var doc map[string]any
			if err := d.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if doc == nil {
				continue
			}
			kind, _ := doc["kind"].(string)
			if kind == "" || doc["apiVersion"] == nil {
				t.Errorf("%s: a document without kind or apiVersion", f)
			}
			kinds[kind] = true
			// A fixed defect: a pod that writes to a volume
			// runs as the image's user, 65532, which must own it.
			walkPodSpecs(doc, func(spec map[string]any) {
				if !writesVolume(spec) {
					return
				}
				sc, _ := spec["securityContext"].(map[string]any)
				if sc == nil || sc["fsGroup"] != 65532 {
					t.Errorf("%s: %s: a pod with volumes and no securityContext.fsGroup 65532: the image's user cannot write to a volume owned by root", f, kind)
				}
			})
			walkContainers(doc, func(c map[string]any) {
				if c["image"] != string(image[1]) {
					t.Errorf("%s: %s: image %v, want %s (the Dockerfile's)", f, kind, c["image"], image[1])
				}
				var words []string
				for _, k := range []string{"command", "args"} {
					if l, ok := c[k].([]any); ok {
						for _, w := range l {
							words = append(words, strings.Fields(w.(string))...)
						}
					}
				}
				// A fixed defect: a pipe's status is its last
				// command's (merge | tee succeeded with a shard
				// missing).
				if indexOf(words, "|") >= 0 {
					t.Errorf("%s: %s: a shell line with a pipe hides nqueens's exit status: %q", f, kind, words)
				}
				if i := indexOf(words, "nqueens"); i >= 0 {
					words = words[i+1:]
				} else if words[0] == "sh" {
					t.Errorf("%s: %s runs a shell without nqueens", f, kind)
					return
				}
				checkCommand(t, f, words)
			})
		}
	}
	for _, k := range []string{"StatefulSet", "Deployment", "Service", "Job"} {
		if !kinds[k] {
			t.Errorf("no %s among the manifests", k)
		}
	}
}

func indexOf(l []string, s string) int {
	for i, w := range l {
		if w == s {
			return i
		}
	}
	return -1
}

// writesVolume reports whether a container of a pod spec mounts a volume
// read-write.
func writesVolume(spec map[string]any) bool {
	for _, c := range spec["containers"].([]any) {
		mounts, _ := c.(map[string]any)["volumeMounts"].([]any)
		for _, m := range mounts {
			if ro, _ := m.(map[string]any)["readOnly"].(bool); !ro {
				return true
			}
		}
	}
	return false
}

// walkPodSpecs calls f on every pod spec (a map with containers) of a
// manifest.
func walkPodSpecs(v any, f func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["containers"]; ok {
			f(v)
		}
		for _, x := range v {
			walkPodSpecs(x, f)
		}
	case []any:
		for _, x := range v {
			walkPodSpecs(x, f)
		}
	}
}

// The table of memory per worker in scripts/README.md is what
// queens.MemoryTable gives now (join.Memory's estimates): it is regenerated
// by go run ./scripts/memtable whenever the estimates change.
func TestMemoryTableCurrent(t *testing.T) {
	readme, err := os.ReadFile("../../scripts/README.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- memtable: go run ./scripts/memtable -->\n", "<!-- /memtable -->"
	_, rest, ok := strings.Cut(string(readme), begin)
	table, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("scripts/README.md has no table between %q and %q", begin, end)
	}
	var want strings.Builder
	if err := queens.MemoryTable(&want, 20, 28); err != nil {
		t.Fatal(err)
	}
	if table != want.String() {
		t.Errorf("scripts/README.md's memory table is out of date: paste the output of 'go run ./scripts/memtable' between its markers; want\n%s", want.String())
	}
}

// walkContainers calls f on every containers entry of a manifest.
func walkContainers(v any, f func(map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "containers" {
				for _, c := range x.([]any) {
					f(c.(map[string]any))
				}
				continue
			}
			walkContainers(x, f)
		}
	case []any:
		for _, x := range v {
			walkContainers(x, f)
		}
	}
}

// checkCommand checks that words start with a subcommand and that each
// --flag is one of its flags.
func checkCommand(t *testing.T, file string, words []string) {
	t.Helper()
	code, help, _ := runCLI(words[0], "-h") // help goes to stdout
	if code != cli.ExitOK {
		t.Errorf("%s: nqueens %s is not a command", file, words[0])
		return
	}
	for _, w := range words[1:] {
		if name, ok := strings.CutPrefix(w, "--"); ok {
			if !strings.Contains(help, "  -"+name+" ") && !strings.Contains(help, "  -"+name+"\n") {
				t.Errorf("%s: nqueens %s has no flag --%s", file, words[0], name)
			}
		}
	}
}

// manifestDocs reads every document of the Kubernetes manifests in
// scripts/, by file.
func manifestDocs(t *testing.T) map[string][]map[string]any {
	t.Helper()
	files, _ := filepath.Glob("../../scripts/*.yaml")
	out := map[string][]map[string]any{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var doc map[string]any
			if err := d.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if doc != nil {
				out[f] = append(out[f], doc)
			}
		}
	}
	return out
}

// dig follows keys through nested maps.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// quantity reads a Kubernetes memory quantity (512Mi, 2Gi) or a
// GOMEMLIMIT (1200MiB) in bytes.
func quantity(t *testing.T, s string) uint64 {
	t.Helper()
	b, err := parseBytes(strings.TrimSuffix(strings.TrimSuffix(s, "i"), "iB") + "iB")
	if err != nil {
		t.Fatalf("memory quantity %q: %v", s, err)
	}
	return b
}

// The manifests run as they would in production. Every
// pod runs as a non-root user, every container with a read-only image, no
// privilege escalation and no capabilities, a memory limit and GOMEMLIMIT
// below it; the servers have probes on NATS's /healthz (served beyond
// loopback with --http), one server a node and a PodDisruptionBudget of
// one; the Indexed Job fails at once on a usage error (exit 2); every
// claim a pod mounts is provided; and the memory figures in the comments
// are the memory table's.
func TestKubernetesProduction(t *testing.T) {
	tables := map[string]string{} // by n: that row of the table
	tableOf := func(n string) string {
		if _, ok := tables[n]; !ok {
			var b strings.Builder
			v, _ := strconv.Atoi(n)
			if v >= 12 && v <= 28 {
				if err := queens.MemoryTable(&b, v, v); err != nil {
					t.Fatal(err)
				}
			}
			tables[n] = b.String()
		}
		return tables[n]
	}
	claims := map[string]bool{}
	var claimed []string
	var pdbSelectors []any
	var statefulSets []map[string]any
	docs := manifestDocs(t)
	for f, ds := range docs {
		raw, _ := os.ReadFile(f)
		// Comments, joined across lines, name figures of the table.
		var comments strings.Builder
		for _, l := range strings.Split(string(raw), "\n") {
			if _, c, ok := strings.Cut(l, "#"); ok {
				comments.WriteString(strings.TrimSpace(c) + " ")
			}
		}
		figures := regexp.MustCompile(`memory table: n = (\d+), (\d+) slots?, (tables|bounded): (\d+) MiB`).FindAllStringSubmatch(comments.String(), -1)
		for _, m := range figures {
			row := regexp.MustCompile(`(?m)^\| ` + m[1] + ` \| ` + m[3] + `[^|]*\|(.*)$`).FindStringSubmatch(tableOf(m[1]))
			cols := map[string]int{"1": 0, "4": 1, "8": 2, "16": 3}
			col, ok := cols[m[2]]
			if row == nil || !ok {
				t.Errorf("%s: the comment %q names no figure of the memory table", f, m[0])
				continue
			}
			cells := strings.Split(row[1], "|")
			if got := strings.TrimSpace(cells[col]); got != m[4]+" MiB" {
				t.Errorf("%s: the comment says %q, the memory table %s", f, m[0], got)
			}
		}
		if strings.Contains(string(raw), "--workers") && len(figures) == 0 {
			t.Errorf("%s: a count sized by no figure of the memory table (write \"memory table: n = N, S slots, tables: M MiB\")", f)
		}
		for _, doc := range ds {
			kind, _ := doc["kind"].(string)
			switch kind {
			case "PersistentVolumeClaim":
				claims[dig(doc, "metadata", "name").(string)] = true
			case "PodDisruptionBudget":
				pdbSelectors = append(pdbSelectors, dig(doc, "spec", "selector"))
			case "StatefulSet":
				statefulSets = append(statefulSets, doc)
				if dig(doc, "spec", "template", "spec", "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution") == nil {
					t.Errorf("%s: the servers may share a node (no required podAntiAffinity)", f)
				}
			case "Job":
				if dig(doc, "spec", "completionMode") == "Indexed" {
					failsOn2 := false
					rules, _ := dig(doc, "spec", "podFailurePolicy", "rules").([]any)
					for _, r := range rules {
						vals, _ := dig(r, "onExitCodes", "values").([]any)
						if dig(r, "action") == "FailJob" && dig(r, "onExitCodes", "operator") == "In" && slices.Contains(vals, any(2)) {
							failsOn2 = true
						}
					}
					if !failsOn2 {
						t.Errorf("%s: the Indexed Job retries a usage error (no podFailurePolicy rule FailJob on exit code 2)", f)
					}
				}
			}
			walkPodSpecs(doc, func(spec map[string]any) {
				if dig(spec, "securityContext", "runAsNonRoot") != true {
					t.Errorf("%s: %s: a pod without securityContext.runAsNonRoot", f, kind)
				}
				vols, _ := spec["volumes"].([]any)
				for _, v := range vols {
					if c, ok := dig(v, "persistentVolumeClaim", "claimName").(string); ok {
						claimed = append(claimed, f+": "+c)
					}
				}
				for _, c := range spec["containers"].([]any) {
					name := dig(c, "name")
					sc := dig(c, "securityContext")
					drop, _ := dig(sc, "capabilities", "drop").([]any)
					if dig(sc, "readOnlyRootFilesystem") != true || dig(sc, "allowPrivilegeEscalation") != false || !slices.Contains(drop, any("ALL")) {
						t.Errorf("%s: %s: container %v: want securityContext readOnlyRootFilesystem, no allowPrivilegeEscalation, capabilities drop ALL; have %v", f, kind, name, sc)
					}
					limit, _ := dig(c, "resources", "limits", "memory").(string)
					if limit == "" {
						t.Errorf("%s: %s: container %v has no memory limit", f, kind, name)
						continue
					}
					gomem := ""
					env, _ := dig(c, "env").([]any)
					for _, e := range env {
						if dig(e, "name") == "GOMEMLIMIT" {
							gomem, _ = dig(e, "value").(string)
						}
					}
					if gomem == "" || quantity(t, gomem) >= quantity(t, limit) {
						t.Errorf("%s: %s: container %v: GOMEMLIMIT %q, want one below its memory limit %s", f, kind, name, gomem, limit)
					}
				}
			})
		}
	}
	for _, c := range claimed {
		if f, name, _ := strings.Cut(c, ": "); !claims[name] {
			t.Errorf("%s: mounts the claim %s, which no manifest provides", f, name)
		}
	}
	if len(statefulSets) == 0 {
		t.Fatal("no StatefulSet of servers")
	}
	for _, ss := range statefulSets {
		sel := dig(ss, "spec", "selector")
		found := false
		for _, p := range pdbSelectors {
			if reflect.DeepEqual(p, sel) {
				found = true
			}
		}
		if !found {
			t.Errorf("no PodDisruptionBudget selects the servers (%v)", sel)
		}
		walkContainers(ss, func(c map[string]any) {
			ports := map[string]int{}
			list, _ := c["ports"].([]any)
			for _, p := range list {
				ports[dig(p, "name").(string)] = dig(p, "containerPort").(int)
			}
			var args []string
			for _, a := range c["args"].([]any) {
				args = append(args, a.(string))
			}
			for _, probe := range []string{"startupProbe", "livenessProbe", "readinessProbe"} {
				path, _ := dig(c, probe, "httpGet", "path").(string)
				port := dig(c, probe, "httpGet", "port")
				if name, ok := port.(string); ok {
					port = ports[name]
				}
				i := indexOf(args, "--http")
				if !strings.HasPrefix(path, "/healthz") || i < 0 || i+1 >= len(args) || args[i+1] != fmt.Sprintf("0.0.0.0:%v", port) {
					t.Errorf("server %v: %s %v on port %v: want NATS's /healthz on the port of --http 0.0.0.0:PORT (args %q)", c["name"], probe, path, port, args)
				}
			}
		})
	}
}

// The runbook's Slurm lines: the three servers' time
// limits are staggered (the same --time=7-0 expired all three at once),
// and workers and shards count with the CPUs of their allocation, which
// a rerun asks for (--workers 8 whatever the allocation).
func TestRunbookSlurmLines(t *testing.T) {
	readme, err := os.ReadFile("../../scripts/README.md")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../../scripts/slurm-array.sh")
	if err != nil {
		t.Fatal(err)
	}
	servers := regexp.MustCompile(`sbatch --job-name=nqserve\$i .*--time=(.+?) --`).FindSubmatch(readme)
	if servers == nil || !strings.Contains(string(servers[1]), "i") {
		t.Errorf("the servers' sbatch line gives each the same time limit (%q): stagger them by $i", servers)
	}
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.Contains(l, "nqueens work") && strings.Contains(l, "--workers") && !strings.Contains(l, "SLURM_CPUS_PER_TASK") && strings.Contains(string(readme), "--wrap \\\n"+l) {
			t.Errorf("a Slurm worker's --workers is not its allocation's: %q", l)
		}
	}
	rerun := regexp.MustCompile(`(?m)^#\s+N=\d+ K=\d+ sbatch --array=\S+ (.*) scripts/slurm-array.sh shard$`).FindSubmatch(script)
	if rerun == nil || !strings.Contains(string(rerun[1]), "--cpus-per-task=") || !strings.Contains(string(rerun[1]), "--mem=") {
		t.Errorf("slurm-array.sh's rerun line %q: want --cpus-per-task and --mem", rerun)
	}
	if !strings.Contains(string(script), "${SLURM_CPUS_PER_TASK:-") {
		t.Error("slurm-array.sh's shards do not count with their allocation's CPUs")
	}
}
