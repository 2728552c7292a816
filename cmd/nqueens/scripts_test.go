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
