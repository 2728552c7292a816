package web

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// fakePage is a page of the frame's tests: its HTML, a script and its
// English texts.
func fakePage(name string, extra map[string]string) *Page {
	fsys := fstest.MapFS{
		name + ".html": {Data: []byte(`<nav aria-label="Pages"><!--pages--></nav><script src="/static/` + name + `.js"></script>`)},
		name + ".js":   {Data: []byte("'use strict';")},
		"i18n/en.json": {Data: []byte(`{"nav.` + name + `": "` + strings.ToUpper(name) + `", "` + name + `.hello": "Hello"}`)},
		"i18n/ro.json": {Data: []byte(`{"nav.` + name + `": "` + name + `-ro", "` + name + `.hello": "Salut"}`)},
	}
	for k, v := range extra {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return &Page{Path: "/" + name, Nav: "nav." + name, HTML: name + ".html", Assets: fsys}
}

func get(t *testing.T, h http.Handler, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Body)
	return rec.Code, string(b)
}

// TestPagesServed: a server serves the pages it is given and no other,
// each page's files beside the frame's, one catalogue per language with
// the frame's and those pages' texts only, and the header's links to those
// pages only, the current one marked.
func TestPagesServed(t *testing.T) {
	one := New(Options{Pages: []*Page{fakePage("a", nil)}})
	both := New(Options{Pages: []*Page{fakePage("a", nil), fakePage("b", nil)}, Home: "/b"})
	if want := []string{"a.js", "api.js", "i18n.js", "i18n/en.json", "i18n/id.json", "i18n/ko.json", "i18n/ro.json", "i18n/zh-Hant.json", "icon.svg", "style.css", "theme.js"}; !slices.Equal(staticNames(one.static), want) {
		t.Errorf("one page: /static/ holds %v, want %v", staticNames(one.static), want)
	}
	if code, _ := get(t, one, "/b"); code != http.StatusNotFound {
		t.Errorf("one page: /b answered %d", code)
	}
	if code, _ := get(t, one, "/static/b.js"); code != http.StatusNotFound {
		t.Errorf("one page: /static/b.js answered %d", code)
	}
	for _, c := range []struct {
		srv        *Server
		page, want string
	}{
		{one, "/a", `<nav aria-label="Pages"><a href="/a" aria-current="page" data-i18n="nav.a">A</a></nav>`},
		{both, "/a", `<nav aria-label="Pages"><a href="/a" aria-current="page" data-i18n="nav.a">A</a><a href="/b" data-i18n="nav.b">B</a></nav>`},
		{both, "/b", `<nav aria-label="Pages"><a href="/a" data-i18n="nav.a">A</a><a href="/b" aria-current="page" data-i18n="nav.b">B</a></nav>`},
	} {
		if code, body := get(t, c.srv, c.page); code != http.StatusOK || !strings.HasPrefix(body, c.want) {
			t.Errorf("%s: %d %q, want it to begin %q", c.page, code, body, c.want)
		}
	}
	for _, c := range []struct {
		srv  *Server
		lang string
		want map[string]string
	}{
		{one, "en", map[string]string{"lang.label": "Language", "nav.pages": "Pages", "nav.a": "A", "a.hello": "Hello"}},
		{both, "ro", map[string]string{"nav.a": "a-ro", "a.hello": "Salut", "nav.b": "b-ro", "b.hello": "Salut"}},
	} {
		code, body := get(t, c.srv, "/static/i18n/"+c.lang+".json")
		var got map[string]any
		if code != http.StatusOK || json.Unmarshal([]byte(body), &got) != nil {
			t.Fatalf("%s.json: %d %q", c.lang, code, body)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s.json: %q is %q, want %q", c.lang, k, got[k], v)
			}
		}
		if c.srv == one && got["nav.b"] != nil {
			t.Errorf("one page: %s.json has the other page's texts", c.lang)
		}
	}
	rec := httptest.NewRecorder()
	both.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Code != http.StatusFound || rec.Header().Get("Location") != "/b" {
		t.Errorf("/: %d to %q, want Home", rec.Code, rec.Header().Get("Location"))
	}
}

// TestPagesCollide: pages that would serve the same path, file or text
// are a bug of the program that serves them, found when its server is
// made.
func TestPagesCollide(t *testing.T) {
	for _, c := range []struct {
		name  string
		pages []*Page
		want  string
	}{
		{"a path twice", []*Page{fakePage("a", nil), fakePage("a", nil)}, "served twice"},
		{"a file twice", []*Page{fakePage("a", map[string]string{"style.css": ""})}, "both serve /static/style.css"},
		{"a key twice", []*Page{fakePage("a", map[string]string{"i18n/ko.json": `{"nav.pages": "x"}`})}, `key "nav.pages"`},
		{"a name not in English", []*Page{{Path: "/c", Nav: "nav.c", HTML: "a.html", Assets: fakePage("a", nil).Assets}}, `"nav.c"`},
	} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.Contains(msg, c.want) {
					t.Errorf("%s: panic %q, want one saying %q", c.name, msg, c.want)
				}
			}()
			New(Options{Pages: c.pages})
		}()
	}
}

// staticNames returns the paths of the files sf serves under /static/,
// sorted.
func staticNames(sf *staticFiles) []string { return slices.Sorted(maps.Keys(sf.files)) }
