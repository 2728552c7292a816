package web_test

import (
	"encoding/json"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// assetTrees are the files the frame and each page serve under /static/.
func assetTrees() map[string]fs.FS {
	trees := map[string]fs.FS{"frame": web.Assets()}
	for _, p := range pages(queenspage.Options{}) {
		trees[strings.TrimPrefix(p.Path, "/")] = p.Assets
	}
	return trees
}

// The languages the pages speak: a catalogue each, and the plural forms
// (Intl.PluralRules' categories for cardinal numbers) a text with a count
// must have in that language.
var catalogueForms = map[string][]string{
	"en":      {"one", "other"},
	"ro":      {"one", "few", "other"},
	"ko":      {"other"},
	"zh-Hant": {"other"},
	"id":      {"other"},
}

var placeholderRE = regexp.MustCompile(`\{(\w+)\}`)

// loadCatalogue reads the catalogue of lang the pages load,
// /static/i18n/lang.json, as a server of both pages serves it (the
// frame's texts merged with each page's): key -> a text, or plural forms
// -> texts.
func loadCatalogue(t *testing.T, lang string) map[string]any {
	t.Helper()
	rec := httptest.NewRecorder()
	web.New(web.Options{Pages: pages(queenspage.Options{})}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/static/i18n/"+lang+".json", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("%s.json: %d %s", lang, rec.Code, rec.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s.json: %v", lang, err)
	}
	return m
}

// catalogueLangs returns the languages of the catalogues in fsys's i18n/.
func catalogueLangs(t *testing.T, fsys fs.FS) []string {
	t.Helper()
	files, err := fs.Glob(fsys, "i18n/*.json")
	if err != nil {
		t.Fatal(err)
	}
	var langs []string
	for _, f := range files {
		langs = append(langs, strings.TrimSuffix(path.Base(f), ".json"))
	}
	slices.Sort(langs)
	return langs
}

// forms returns a message's texts by plural form ("" for a plain text).
func forms(v any) (map[string]string, bool) {
	switch v := v.(type) {
	case string:
		return map[string]string{"": v}, true
	case map[string]any:
		out := map[string]string{}
		for k, s := range v {
			str, ok := s.(string)
			if !ok {
				return nil, false
			}
			out[k] = str
		}
		return out, true
	}
	return nil, false
}

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestCatalogues checks that every catalogue has every key of the English
// one and no other, each text non-empty, with the same values put in
// ({name}) as the English text, and the plural forms its language needs;
// and that the frame and each page give a catalogue for every language.
func TestCatalogues(t *testing.T) {
	want := slices.Sorted(maps.Keys(catalogueForms))
	for who, fsys := range assetTrees() {
		if langs := catalogueLangs(t, fsys); !slices.Equal(langs, want) {
			t.Errorf("%s: catalogues %v, want %v", who, langs, want)
		}
	}
	langs := want
	en := loadCatalogue(t, "en")
	if len(en) < 100 {
		t.Fatalf("the English catalogue has %d keys", len(en))
	}
	for _, lang := range langs {
		cat := loadCatalogue(t, lang)
		for key := range cat {
			if _, ok := en[key]; !ok {
				t.Errorf("%s: key %q is not in the English catalogue", lang, key)
			}
		}
		for key, ev := range en {
			v, ok := cat[key]
			if !ok {
				t.Errorf("%s: no %q", lang, key)
				continue
			}
			enForms, _ := forms(ev)
			var want []string
			for _, s := range enForms {
				want = append(want, placeholders(s)...)
			}
			slices.Sort(want)
			want = slices.Compact(want)
			fs, ok := forms(v)
			if !ok {
				t.Errorf("%s: %q is neither a text nor plural forms", lang, key)
				continue
			}
			if _, plain := enForms[""]; plain {
				if _, p := fs[""]; !p {
					t.Errorf("%s: %q has plural forms where English has a text", lang, key)
				}
			} else {
				for _, f := range catalogueForms[lang] {
					if _, ok := fs[f]; !ok {
						t.Errorf("%s: %q lacks the plural form %q", lang, key, f)
					}
				}
			}
			for form, s := range fs {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s: %q (%s) is empty", lang, key, form)
				}
				if form != "" && !slices.Contains(catalogueForms[lang], form) {
					t.Errorf("%s: %q has a plural form %q the language does not use", lang, key, form)
				}
				got := placeholders(s)
				for _, p := range got {
					if !slices.Contains(want, p) {
						t.Errorf("%s: %q (%s) puts in {%s}, which the page does not give", lang, key, form, p)
					}
				}
				// Every value but a count shown by its form is in the text.
				for _, p := range want {
					if !slices.Contains(got, p) && !(p == "n" && form != "" && form != "other") {
						t.Errorf("%s: %q (%s) leaves out {%s}", lang, key, form, p)
					}
				}
			}
		}
	}
}

// TestPagesUseCatalogue checks that every key the pages name is in every
// catalogue: data-i18n attributes, t('…') in the scripts, the keys the
// scripts hold as strings ('s.st.welcome', put in t() later), and the keys
// they make: a glossary entry's name and text for every key a hint can
// name (sudokupage.GlossaryKeys), a house's name for each kind, a theme's,
// a level's and a symmetry's.
func TestPagesUseCatalogue(t *testing.T) {
	cats := map[string]map[string]any{}
	for lang := range catalogueForms {
		cats[lang] = loadCatalogue(t, lang)
	}
	has := func(what, key string) {
		t.Helper()
		for lang, cat := range cats {
			if _, ok := cat[key]; !ok {
				t.Errorf("%s names %q, which the %s catalogue lacks", what, key, lang)
			}
		}
	}
	attr := regexp.MustCompile(`data-i18n(?:-[a-z-]+)?="([^"]+)"`)
	call := regexp.MustCompile(`\bt\('([a-z0-9.]+[a-z0-9])'`)
	literal := regexp.MustCompile(`'([sq]\.[a-z0-9.]+[a-z0-9])'`)
	trees := assetTrees()
	for _, c := range []struct{ who, name string }{{"queens", "queens.html"}, {"sudoku", "sudoku.html"}, {"queens", "queens.js"}, {"sudoku", "sudoku.js"}, {"frame", "i18n.js"}} {
		b, err := fs.ReadFile(trees[c.who], c.name)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, re := range []*regexp.Regexp{attr, call, literal} {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				n++
				has(c.name, m[1])
			}
		}
		if n == 0 && c.name != "i18n.js" {
			t.Errorf("%s names no key", c.name)
		}
	}
	for _, key := range sudokupage.GlossaryKeys() {
		has("the glossary", "s.gl."+key)
		has("the glossary", "s.gl."+key+".text")
	}
	for _, kind := range []string{"row", "column", "box"} {
		has("a hint's houses", "s.house."+kind)
	}
	for _, level := range []string{"singles", "hidden", "intermediate", "hard"} {
		has("a puzzle's level", "s.lv."+level)
	}
	for _, sym := range []string{"none", "rot180", "rot90", "mirror", "diagonal", "random"} {
		has("a puzzle's symmetry", "s.sym."+sym)
	}
	for _, theme := range []string{"auto", "light", "dark"} {
		has("the theme switch", "s.theme."+theme)
		has("the theme switch", "s.theme.label."+theme)
	}
}
