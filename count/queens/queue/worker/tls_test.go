package worker

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// pemPair is a certificate and its key, PEM.
type pemPair struct{ cert, key []byte }

// issue makes a certificate for name (an authority if parent is nil,
// which then signs itself), valid for 127.0.0.1.
func issue(t *testing.T, name string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, serial int64) (*x509.Certificate, *ecdsa.PrivateKey, pemPair) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial),
		Subject:      pkix.Name{CommonName: name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	signer := key
	if parent == nil {
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		parent = tmpl
	} else {
		signer = parentKey
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, signer)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key, pemPair{
		cert: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		key:  pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}),
	}
}

// A server with TLS client certificates, given as PEM contents (the
// commands read the files, bounded): a client with the authority and a
// certificate it signed counts; one without a certificate, or trusting
// another authority, is refused.
func TestTLSFromMemory(t *testing.T) {
	caCert, caKey, ca := issue(t, "nqcount test CA", nil, nil, 1)
	_, _, srvPair := issue(t, "server", caCert, caKey, 2)
	_, _, cl := issue(t, "client", caCert, caKey, 3)
	_, _, other := issue(t, "another CA", nil, nil, 4)
	srv := serve(t, server.Config{TLSCert: srvPair.cert, TLSKey: srvPair.key, TLSClientCA: ca.cert})
	c := connect(t, srv.URL(), client.Auth{CA: ca.cert, Cert: cl.cert, Key: cl.key})
	sub := submit(t, c, queens.Spec{N: 6}, client.SubmitOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if _, err := c.Status(ctx, sub.Job); err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]client.Auth{
		"no client certificate":      {CA: ca.cert},
		"trusting another authority": {CA: other.cert, Cert: cl.cert, Key: cl.key},
	} {
		c, err := client.Connect(ctx, srv.URL(), client.ConnectOptions{Auth: a})
		if err == nil {
			c.Close()
			t.Errorf("%s: connected", name)
			continue
		}
		t.Logf("%s: %v", name, err)
	}
}

// What cannot be shown to a server is refused before it is asked, with
// the flag that gave it.
func TestAuthCheck(t *testing.T) {
	_, _, pair := issue(t, "CA", nil, nil, 1)
	user, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	seed, err := user.Seed()
	if err != nil {
		t.Fatal(err)
	}
	creds := "-----BEGIN NATS USER JWT-----\neyJhbGciOiJlZDI1NTE5In0.e30.c2ln\n------END NATS USER JWT------\n\n" +
		"-----BEGIN USER NKEY SEED-----\n" + string(seed) + "\n------END USER NKEY SEED------\n"
	for _, a := range []client.Auth{{}, {Token: "s3cret-token-of-16+"}, {Token: "short"}, {Creds: []byte(creds)}, {CA: pair.cert}, {Cert: pair.cert, Key: pair.key}} {
		if err := a.Check(); err != nil {
			t.Errorf("%+v: %v", a, err)
		}
	}
	for want, a := range map[string]client.Auth{
		"--creds: not a NATS credentials file":  {Creds: []byte("these are my notes\n")},
		"--tls-ca: no PEM certificate":          {CA: []byte("junk")},
		"--tls-cert, --tls-key: not a PEM":      {Cert: pair.cert, Key: []byte("junk")},
		"the token holds byte 0x0a at 3":        {Token: "abc\ndefghijklmnopq"},
		"the token has 1025 characters":         {Token: strings.Repeat("x", queue.MaxTokenLength+1)},
		"the token holds byte 0xc3 at 1":        {Token: "p\u00e4sswordpassword"},
		"the token holds byte 0x20 at 3":        {Token: "two words, sixteen+"},
		"--tls-cert, --tls-key: not a PEM cert": {Cert: []byte("junk"), Key: pair.key},
	} {
		if err := a.Check(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q, got %v", want, err)
		}
	}
	if err := queue.CheckToken(strings.Repeat("x", queue.MaxTokenLength)); err != nil {
		t.Errorf("the longest token: %v", err)
	}
}

// TLS routes with a private authority never formed
// ("certificate signed by unknown authority"): the routes checked the
// other server's certificate against the system's roots.
func TestTLSRoutesPrivateAuthority(t *testing.T) {
	need64(t)
	caCert, caKey, ca := issue(t, "nqcount test CA", nil, nil, 1)
	var routes []string
	cfgs := make([]server.Config, 2)
	for i := range cfgs {
		_, _, pair := issue(t, fmt.Sprintf("s%d", i), caCert, caKey, int64(10+i))
		cfgs[i] = server.Config{Name: fmt.Sprintf("s%d", i), Listen: "127.0.0.1:0", HTTP: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir(),
			TLSCert: pair.cert, TLSKey: pair.key, TLSClientCA: ca.cert, Settings: queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 3, Replicas: 1}}
		routes = append(routes, cfgs[i].ClusterListen)
	}
	var srvs []*server.Server
	for i := range cfgs {
		cfgs[i].Routes = routes
		s, err := server.Serve(context.Background(), cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		srvs = append(srvs, s)
	}
	for end := time.Now().Add(30 * time.Second); numRoutes(t, srvs[0]) == 0 || numRoutes(t, srvs[1]) == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the TLS routes did not form within 30 s")
		}
	}
}

// A cluster as the runbook sets one up: three servers speaking TLS with a
// private authority on their client ports and their routes, with roles
// (the operator's, the workers' and the routes' tokens). The routes form;
// the operator submits through one server, two workers with the workers'
// token count through the others, verified, exactly; a worker cannot
// cancel; a server showing the workers' token on its route is not let in.
func TestTLSRolesCluster(t *testing.T) {
	need64(t)
	const op, wk, rt = "operator-token-0123456789", "worker-token-0123456789", "route-token-0123456789"
	caCert, caKey, ca := issue(t, "nqcount test CA", nil, nil, 1)
	cfgs := make([]server.Config, 3)
	for i := range cfgs {
		_, _, pair := issue(t, fmt.Sprintf("s%d", i), caCert, caKey, int64(10+i))
		cfgs[i] = server.Config{Name: fmt.Sprintf("s%d", i), Listen: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir(),
			TLSCert: pair.cert, TLSKey: pair.key, TLSClientCA: ca.cert, Token: op, WorkerToken: wk, RouteToken: rt,
			Settings: queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 3}}
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	srvs := serveCluster(t, ctx, cfgs)
	_, _, opPair := issue(t, "operator", caCert, caKey, 20)
	oc := connect(t, srvs[0].URL(), client.Auth{User: queue.OperatorUser, Token: op, CA: ca.cert, Cert: opPair.cert, Key: opPair.key})
	sub := submit(t, oc, queens.Spec{N: 9}, client.SubmitOptions{Verify: 20})
	var waits []func() (*Stats, error)
	for i := range 2 {
		_, _, pair := issue(t, fmt.Sprintf("w%d", i), caCert, caKey, int64(30+i))
		url := srvs[1+i].URL() + "," + srvs[0].URL()
		wc, err := client.Connect(ctx, url, client.ConnectOptions{Auth: client.Auth{User: queue.WorkerUser, Token: wk, CA: ca.cert, Cert: pair.cert, Key: pair.key}, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		defer wc.Close()
		cfg := Config{Execution: queens.Execution{Workers: 1}, ID: fmt.Sprintf("w%d", i), ExitWhenIdle: true, Program: "test", Logf: t.Logf}
		waits = append(waits, goWork(ctx, wc, cfg))
	}
	for _, w := range waits {
		if _, err := w(); err != nil {
			t.Fatal(err)
		}
	}
	exact(t, status(t, oc, sub.Job))
	_, _, wPair := issue(t, "w9", caCert, caKey, 40)
	wc := connect(t, srvs[2].URL(), client.Auth{User: queue.WorkerUser, Token: wk, CA: ca.cert, Cert: wPair.cert, Key: wPair.key})
	short, stop := context.WithTimeout(ctx, 3*time.Second)
	defer stop()
	if _, err := wc.Cancel(short, sub.Job); err == nil {
		t.Error("a worker cancelled a job")
	}
	// A fourth server with the CA's certificate but the workers' token as
	// its routes' password is not let in.
	_, _, rogueTLS := issue(t, "rogue", caCert, caKey, 50)
	rogue := server.Config{Name: "rogue", Listen: "127.0.0.1:0", HTTP: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir(),
		TLSCert: rogueTLS.cert, TLSKey: rogueTLS.key, TLSClientCA: ca.cert, Token: op, WorkerToken: "rogue-" + wk, RouteToken: wk, Routes: []string{cfgs[0].ClusterListen}}
	sr, err := server.Serve(ctx, rogue)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	time.Sleep(2 * time.Second)
	if n := numRoutes(t, sr); n != 0 {
		t.Errorf("a server showing the workers' token on its route has %d routes", n)
	}
}
