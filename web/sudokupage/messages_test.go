package sudokupage

import (
	"bufio"
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/refdata"
)

// catalogues reads the page's catalogues: lang -> key -> a text or
// plural forms.
func catalogues(t *testing.T) map[string]map[string]any {
	t.Helper()
	files, err := fs.Glob(assets, "assets/i18n/*.json")
	if err != nil || len(files) < 5 {
		t.Fatalf("catalogues: %v %v", files, err)
	}
	out := map[string]map[string]any{}
	for _, f := range files {
		b, err := fs.ReadFile(assets, f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(strings.TrimPrefix(f, "assets/i18n/"), ".json")] = m
	}
	return out
}

// textsOf returns a catalogue entry's texts (its plural forms, or the
// text).
func textsOf(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case map[string]any:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			s, _ := v[k].(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// TestMessagesInCatalogues: every message the engine can give a step
// (logic.Messages), and the page's answers that are not steps
// (AnswerMessages), is in every catalogue, each text (each plural form)
// with exactly the engine's placeholders (a plural form may leave out
// the count n, which picks it).
func TestMessagesInCatalogues(t *testing.T) {
	cats := catalogues(t)
	all := logic.Messages()
	for key, tmpl := range AnswerMessages() {
		if _, ok := all[key]; ok {
			t.Errorf("%s is both the engine's and the page's", key)
		}
		all[key] = tmpl
	}
	for key, tmpl := range all {
		want := logic.Placeholders(tmpl)
		for lang, cat := range cats {
			v, ok := cat[key]
			if !ok {
				t.Errorf("%s: no %q", lang, key)
				continue
			}
			texts := textsOf(v)
			if len(texts) == 0 {
				t.Errorf("%s: %q is neither a text nor plural forms", lang, key)
			}
			for _, s := range texts {
				got := slices.DeleteFunc(logic.Placeholders(s), func(p string) bool { return p == "n" })
				if !slices.Equal(got, want) {
					t.Errorf("%s: %q = %q puts in %v, the engine gives %v", lang, key, s, got, want)
				}
			}
		}
	}
	for lang, cat := range cats {
		for _, kind := range []string{"row", "column"} {
			if _, ok := cat["s.houses."+kind]; !ok {
				t.Errorf("%s: no s.houses.%s (a fish's houses)", lang, kind)
			}
		}
	}
}

// TestHintMessages: the hints of a sample of hard puzzles, on both
// scales, carry a message wherever the engine gives one, the technique
// in it named by a key every catalogue has: its own name (s.tn.NAME),
// else its glossary entry's, as the page names it.
func TestHintMessages(t *testing.T) {
	cats := catalogues(t)
	f, err := os.Open(refdata.File(t, "sudoku", "magictour-top1465.answers.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var puzzles []string
	for sc := bufio.NewScanner(f); sc.Scan() && len(puzzles) < 12; {
		if p, _, ok := strings.Cut(sc.Text(), ":"); ok && len(p) == 81 {
			puzzles = append(puzzles, p)
		}
	}
	techs := map[string]bool{}
	for i, p := range puzzles {
		g, err := sudoku.Parse(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, sc := range logic.Scales {
			x, err := logic.ExplainWith(context.Background(), g, logic.Options{Scale: sc})
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range x.Steps {
				h := HintOf(st)
				if (h.Message != nil) != (st.Message.Key != "") {
					t.Fatalf("puzzle %d: %s: message %v, engine's %q", i, st.Technique, h.Message, st.Message.Key)
				}
				if h.Message == nil {
					continue
				}
				for _, a := range h.Message.Args {
					if a.Kind != "technique" {
						continue
					}
					// The technique's own name, else its glossary entry's.
					key := TechniqueKey(a.Text)
					if _, ok := cats["en"][key]; !ok {
						if h.Glossary == "" {
							t.Errorf("%s: neither %q nor a glossary entry", a.Technique, key)
						}
						key = "s.gl." + h.Glossary
					}
					techs[key] = true
				}
			}
		}
	}
	if len(techs) < 5 {
		t.Errorf("the sample names only %v", slices.Sorted(maps.Keys(techs)))
	}
	for key := range techs {
		for lang, cat := range cats {
			if _, ok := cat[key]; !ok {
				t.Errorf("%s: no %q", lang, key)
			}
		}
	}
}
