// Package web is the frame of nqcount's browser front ends: the server
// that serves the pages given to it, each with its assets and its JSON
// API, and what the pages share: the listener and its checks (loopback
// hosts, the token), JSON requests and errors, the turns of the requests
// that compute, the assets (embedded in the binaries: the pages load
// nothing from the network), the message catalogues and the header's
// links between the pages served.
//
// The pages are packages of their own, so that a command links only the
// pages it serves: web/sudokupage (the Sudoku app, cmd/sudoku-play) and
// web/queenspage (the n-queens search animated and counted live,
// cmd/nqueens's "watch"). docs/web.md documents every endpoint. The API
// is for the pages and for scripts on the same machine: bad requests get
// 400 and a one-line message, bodies are bounded, and the server binds
// the loopback interface unless told otherwise, in which case every
// request must carry a token.
package web

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// DefaultAddr is where Listen binds when given no address: the loopback
// interface and a free port.
const DefaultAddr = "127.0.0.1:0"

// MaxBody bounds the size of a request body. The largest request, a saved
// game uploaded for loading, is a few kilobytes.
const MaxBody = 64 << 10

// Options configure a Server: the pages it serves, and how.
type Options struct {
	// Pages are the pages served (a Server with none serves only its
	// static assets and answers every API request 404).
	Pages []*Page
	// Token, when set, is required from every request: as the token query
	// parameter (the URL Listen prints carries it), from the cookie the
	// server then sets, or as "Authorization: Bearer TOKEN". Listen makes
	// a random one when it binds an address other than loopback.
	Token string
	// Home is the page "/" leads to (default: the first page's Path).
	Home string
	// MaxWork bounds the requests that compute at once (those the pages
	// register with Limited; 0: DefaultMaxWork per core), and
	// WorkQueue those that wait for their turn (0: DefaultWorkQueue per
	// core), each for at most WorkWait (0: DefaultWorkWait); others are
	// answered 503 (busy), so that the memory of the work is bounded
	// however many clients ask.
	MaxWork, WorkQueue int
	WorkWait           time.Duration
	// Logf, when set, receives one line per failed request and per
	// recovered panic.
	Logf func(format string, args ...any)
}

// Server is the web layer: an http.Handler with the pages, their assets
// and their API, and, when made by Listen, the listener it serves.
type Server struct {
	opt    Options
	mux    *http.ServeMux
	work   *workLimit
	static *staticFiles

	ln       net.Listener
	loopback bool
	hosts    map[string]bool // Host headers accepted on loopback (DNS rebinding)
}

// New returns a Server with the given options that is not listening: use
// it as an http.Handler (tests do, with httptest).
//
// It panics when the pages collide (two serve the same path or asset, or
// their catalogues the same key): a program's pages are fixed when it is
// built, so that is a bug in it.
func New(opt Options) *Server {
	if opt.Home == "" && len(opt.Pages) > 0 {
		opt.Home = opt.Pages[0].Path
	}
	cores := runtime.GOMAXPROCS(0)
	if opt.MaxWork <= 0 {
		opt.MaxWork = DefaultMaxWork * cores
	}
	if opt.WorkQueue <= 0 {
		opt.WorkQueue = DefaultWorkQueue * cores
	}
	if opt.WorkWait <= 0 {
		opt.WorkWait = DefaultWorkWait
	}
	static, err := newStaticFiles(opt.Pages)
	if err != nil {
		panic("web: " + err.Error())
	}
	s := &Server{opt: opt, mux: http.NewServeMux(), static: static,
		work: newWorkLimit(opt.MaxWork, opt.WorkQueue, opt.WorkWait)}
	s.routes()
	return s
}

// Listen binds addr ("" means DefaultAddr) and returns a Server ready to
// Serve. On a loopback address only requests naming the server by a
// loopback host are answered, so that a web site cannot reach it through
// a DNS name of its own; on any other address every request needs the
// token (opt.Token, or a random one made here: see URL).
func Listen(addr string, opt Options) (*Server, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %v (want HOST:PORT, e.g. 127.0.0.1:8080)", addr, err)
	}
	loop := isLoopbackHost(host)
	if !loop && opt.Token == "" {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, err
		}
		opt.Token = hex.EncodeToString(b[:])
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := New(opt)
	s.ln, s.loopback = ln, loop
	if loop {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		s.hosts = map[string]bool{}
		for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
			s.hosts[h+":"+port] = true
		}
		if h, _, _ := net.SplitHostPort(ln.Addr().String()); h != "127.0.0.1" && h != "::1" {
			s.hosts[net.JoinHostPort(h, port)] = true
		}
	}
	return s, nil
}

// isLoopbackHost reports whether host names the loopback interface only.
func isLoopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Loopback reports whether the server listens on the loopback interface
// only (no token needed).
func (s *Server) Loopback() bool { return s.loopback }

// Addr returns the address listened on (with the port chosen), or nil for
// a Server made by New.
func (s *Server) Addr() net.Addr {
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// URL returns the address of a page ("/sudoku", "/queens?n=8") on this
// server, with the token when one is needed. A wildcard address (":8080",
// "0.0.0.0:8080") is shown as this machine's loopback address, which
// reaches it too.
func (s *Server) URL(page string) string {
	host := "127.0.0.1"
	port := "0"
	if a := s.Addr(); a != nil {
		h, p, _ := net.SplitHostPort(a.String())
		port = p
		if ip := net.ParseIP(h); ip != nil && !ip.IsUnspecified() {
			host = h
		}
	}
	u := "http://" + net.JoinHostPort(host, port) + page
	if s.opt.Token != "" {
		sep := "?"
		if strings.Contains(page, "?") {
			sep = "&"
		}
		u += sep + "token=" + url.QueryEscape(s.opt.Token)
	}
	return u
}

// Serve answers requests until ctx is cancelled, then tells the pages
// (their Shutdown: a running count stops) and shuts down, letting requests
// in flight finish for up to 5 seconds.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		return errors.New("web: Serve needs a Server made by Listen")
	}
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(s.ln) }()
	select {
	case err := <-errc:
		s.shutdownPages()
		return err
	case <-ctx.Done():
	}
	s.shutdownPages()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-errc
	return err
}

// shutdownPages calls each page's Shutdown.
func (s *Server) shutdownPages() {
	for _, p := range s.opt.Pages {
		if p.Shutdown != nil {
			p.Shutdown()
		}
	}
}

// Close closes the listener of a Server that is not serving (Serve
// closes it when it returns).
func (s *Server) Close() error {
	if s.ln == nil {
		return nil
	}
	return s.ln.Close()
}

// ServeHTTP answers one request: the host and token checks, then the page,
// asset or API endpoint. A panic in a handler is a bug; it is logged and
// answered 500, and the server goes on.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A request refused before its body was read (no such endpoint, a
	// wrong method, host or token) still has its body read, up to
	// MaxBody, before the answer goes out: a client still sending it
	// would otherwise see the connection reset instead of the answer.
	// The answers are small, so they are still buffered here.
	defer drainBody(r)
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.logf("panic serving %s %s: %v", r.Method, r.URL.Path, v)
			writeError(w, http.StatusInternalServerError, "internal error (a bug: please report it)")
		}
	}()
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if s.hosts != nil && !s.hosts[r.Host] {
		writeError(w, http.StatusForbidden, fmt.Sprintf("host %q is not this server's loopback address", r.Host))
		return
	}
	if s.opt.Token != "" && !s.authorized(w, r) {
		writeError(w, http.StatusUnauthorized, "missing or wrong token: open the URL the server printed")
		return
	}
	s.mux.ServeHTTP(w, r)
}

// drainBody reads what is left of a request's body, up to MaxBody bytes
// (a longer body is the client's to lose: the connection then closes).
func drainBody(r *http.Request) {
	if r.Body != nil {
		io.Copy(io.Discard, io.LimitReader(r.Body, MaxBody+1))
	}
}

const tokenCookie = "nqcount_token"

// authorized checks the token and, when it came in the URL, sets the
// cookie that lets the page's own requests through.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	want := []byte(s.opt.Token)
	eq := func(got string) bool { return subtle.ConstantTimeCompare([]byte(got), want) == 1 }
	if t := r.URL.Query().Get("token"); t != "" && eq(t) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opt.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && eq(c.Value) {
		return true
	}
	if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && eq(a) {
		return true
	}
	return false
}

func (s *Server) logf(format string, args ...any) {
	if s.opt.Logf != nil {
		s.opt.Logf(format, args...)
	}
}

// Error is a failed API request: its HTTP status and the one-line message
// for the client (the body {"error": Msg}).
type Error struct {
	Status int
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// Errorf returns the Error of the given status with a formatted message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{status, fmt.Sprintf(format, args...)}
}

// BadRequest returns a 400 Error with a formatted message: what is wrong
// with the request, in one line.
func BadRequest(format string, args ...any) *Error {
	return Errorf(http.StatusBadRequest, format, args...)
}

// errorBody is the JSON of every error answer.
type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = json.Marshal(errorBody{"internal error: " + err.Error()})
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}

// decodeJSON reads a request body of at most MaxBody bytes into v: one
// JSON object with no unknown fields and nothing after it. Field names
// are matched exactly: encoding/json alone would take {"GRID": ...} for
// "grid".
func decodeJSON(body io.Reader, v any) *Error {
	b, rerr := io.ReadAll(io.LimitReader(body, MaxBody+1))
	if len(b) > MaxBody {
		return &Error{http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", MaxBody)}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, e2 := dec.Token(); e2 != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	if err == nil {
		err = exactFields(b, reflect.TypeOf(v))
	}
	if err != nil && errors.Is(err, io.EOF) && rerr != nil {
		err = rerr // the body broke off
	}
	if err != nil {
		if errors.Is(err, io.EOF) {
			return BadRequest("empty request body: send a JSON object")
		}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return BadRequest("bad JSON at byte %d: %v", se.Offset, se)
		case errors.As(err, &te):
			if te.Field != "" {
				return BadRequest("field %q: %s", te.Field, typeMismatch(te))
			}
			return BadRequest("want a JSON object, got %s", te.Value)
		}
		return BadRequest("bad request: %v", err)
	}
	return nil
}

// exactFields checks that every field name of the JSON object b (already
// decoded into a value of type t) is spelled as in t's json tags, case
// included, in nested objects too.
func exactFields(b []byte, t reflect.Type) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		var elems []json.RawMessage
		if json.Unmarshal(b, &elems) != nil {
			return nil
		}
		for _, e := range elems {
			if err := exactFields(e, t.Elem()); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
	default:
		return nil
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return nil // null, or a type the decoder took (json.RawMessage)
	}
	names := jsonFields(t)
	for k, raw := range fields {
		ft, ok := names[k]
		if !ok {
			return fmt.Errorf("json: unknown field %q (names are case-sensitive)", k)
		}
		if err := exactFields(raw, ft); err != nil {
			return err
		}
	}
	return nil
}

// jsonFields maps the JSON names of struct type t's fields, those of
// embedded structs included, to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && !strings.HasPrefix(tag, "-,") {
			continue
		}
		if f.Anonymous && name == "" {
			et := f.Type
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				for k, v := range jsonFields(et) {
					if _, ok := out[k]; !ok {
						out[k] = v
					}
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type
	}
	return out
}

// typeMismatch says what a field wants and what it got. A number that
// does not fit the field is "a whole number" wanted (1e9, 2.5, -1 for a
// count), or one in range: "want a JSON number, got number 1e9" said
// nothing.
func typeMismatch(te *json.UnmarshalTypeError) string {
	kind := te.Type.Kind().String()
	num, isNum := strings.CutPrefix(te.Value, "number ")
	if len(num) > 40 {
		num = num[:40] + "…"
	}
	switch {
	case isNum && strings.HasPrefix(kind, "uint") && strings.HasPrefix(num, "-"):
		return fmt.Sprintf("want a whole number, 0 or more, got %s", num)
	case isNum && (strings.HasPrefix(kind, "int") || strings.HasPrefix(kind, "uint")) && strings.ContainsAny(num, ".eE"):
		return fmt.Sprintf("want a whole number in digits, like 12, got %s", num)
	case isNum:
		return fmt.Sprintf("%s is out of range", num)
	}
	return fmt.Sprintf("want a JSON %s, got %s", jsonKind(kind), te.Value)
}

// jsonKind names a Go kind the way a JSON client thinks of it.
func jsonKind(k string) string {
	switch {
	case strings.HasPrefix(k, "int"), strings.HasPrefix(k, "uint"), strings.HasPrefix(k, "float"):
		return "number"
	case k == "slice", k == "array":
		return "array"
	case k == "struct", k == "map":
		return "object"
	case k == "bool":
		return "boolean"
	}
	return k
}

// Func is an API function: it answers a decoded request, or fails with an
// Error. Its context ends when the client goes away.
type Func[Req any, Resp any] func(ctx context.Context, req *Req) (Resp, *Error)

// Endpoint adapts an API function to HTTP: it checks the method (a POST
// also its JSON content type), decodes the request body into a new Req
// (see MaxBody; a GET or DELETE reads none), and writes the answer or the
// Error as JSON. A page's Routes registers it with Server.Handle.
func Endpoint[Req any, Resp any](s *Server, method string, fn Func[Req, Resp]) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method {
			w.Header().Set("Allow", method)
			writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: use %s", r.Method, r.URL.Path, method))
			return
		}
		req := new(Req)
		if method == http.MethodPost {
			// A JSON content type cannot be sent across sites without
			// the browser asking first, so another page cannot make the
			// user's browser start work here.
			// Media types are case-insensitive (RFC 9110):
			// Application/JSON is JSON.
			if mt, _, _ := strings.Cut(r.Header.Get("Content-Type"), ";"); !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
				writeError(w, http.StatusUnsupportedMediaType, "send the request as Content-Type: application/json")
				return
			}
			if e := decodeJSON(r.Body, req); e != nil {
				s.logf("%s %s: %d %s", r.Method, r.URL.Path, e.Status, e.Msg)
				writeError(w, e.Status, e.Msg)
				return
			}
		}
		resp, e := fn(r.Context(), req)
		if e != nil {
			s.logf("%s %s: %d %s", r.Method, r.URL.Path, e.Status, e.Msg)
			if e.Status == http.StatusServiceUnavailable {
				w.Header().Set("Retry-After", "1")
			}
			writeError(w, e.Status, e.Msg)
			return
		}
		writeJSON(w, http.StatusOK, resp)
	})
}

// Handle registers the handler for a pattern of http.ServeMux (a page's
// API endpoint: see Endpoint). It is for a page's Routes.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// HandleError registers a handler for pattern that answers every request
// with the given status and message as a JSON error (a method a resource
// does not take, with the Allow header given when not empty).
func (s *Server) HandleError(pattern, allow string, status int, msg func(r *http.Request) string) {
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if allow != "" {
			w.Header().Set("Allow", allow)
		}
		writeError(w, status, msg(r))
	})
}

// routes registers the pages, the assets and the pages' API.
func (s *Server) routes() {
	m := s.mux
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		target := s.opt.Home
		if target == "" {
			writeError(w, http.StatusNotFound, "no page here")
			return
		}
		if q := r.URL.RawQuery; q != "" {
			target += "?" + q
		}
		http.Redirect(w, r, target, http.StatusFound)
	})
	for _, p := range s.opt.Pages {
		m.HandleFunc("GET "+p.Path, s.page(s.static.pages[p.Path]))
		if p.Routes != nil {
			p.Routes(s)
		}
	}
	m.Handle("GET /static/", http.StripPrefix("/static/", s.static))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no API endpoint "+r.URL.Path+" (see docs/web.md)")
	})
}

// page serves the HTML of a page.
func (s *Server) page(b []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(b)))
		// Everything comes from this server: no CDN, no inline script.
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("Cache-Control", "no-cache")
		w.Write(b)
	}
}
