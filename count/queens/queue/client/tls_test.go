package client

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
	_, _, client := issue(t, "client", caCert, caKey, 3)
	_, _, other := issue(t, "another CA", nil, nil, 4)
	srv := serve(t, server.Config{TLSCert: srvPair.cert, TLSKey: srvPair.key, TLSClientCA: ca.cert})
	c := connect(t, srv.URL(), Auth{CA: ca.cert, Cert: client.cert, Key: client.key})
	sub := submit(t, c, queens.Spec{N: 6}, SubmitOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if _, err := c.Status(ctx, sub.Job); err != nil {
		t.Fatal(err)
	}
	for name, a := range map[string]Auth{
		"no client certificate":      {CA: ca.cert},
		"trusting another authority": {CA: other.cert, Cert: client.cert, Key: client.key},
	} {
		c, err := Connect(ctx, srv.URL(), ConnectOptions{Auth: a})
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
	for _, a := range []Auth{{}, {Token: "s3cret-token-of-16+"}, {Token: "short"}, {Creds: []byte(creds)}, {CA: pair.cert}, {Cert: pair.cert, Key: pair.key}} {
		if err := a.Check(); err != nil {
			t.Errorf("%+v: %v", a, err)
		}
	}
	for want, a := range map[string]Auth{
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
		cfgs[i] = server.Config{Name: fmt.Sprintf("s%d", i), Listen: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir(),
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
	for end := time.Now().Add(30 * time.Second); srvs[0].NumRoutes() == 0 || srvs[1].NumRoutes() == 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the TLS routes did not form within 30 s")
		}
	}
}
