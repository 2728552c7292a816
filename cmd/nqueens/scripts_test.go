package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/nqcount/nqcount/count/queens/queue"
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
			// Defect 7 of issue 22: a pod that writes to a volume
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
				// Defect 7 of issue 22: a pipe's status is its last
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
// queue.MemoryTable gives now (join.Memory's estimates): it is regenerated
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
	if err := queue.MemoryTable(&want, 20, 28); err != nil {
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
	if code != exitOK {
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
