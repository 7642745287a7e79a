package builder_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// rig is the sandbox on a fake clock, a client of it (builder submit logs
// in to nothing), a journal, and the authorization requests counted.
type rig struct {
	t       *testing.T
	clock   *exchangetest.FakeClock
	client  *exchange.Client
	journal *journal.Journal
	authors atomic.Int64
}

func newRig(t *testing.T) *rig {
	r := &rig{t: t}
	w := loopback.NewWorldBehind(t, sandbox.Options{}, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if req.URL.Path == exchange.PathBuilderAuthorize {
				r.authors.Add(1)
			}
			next.ServeHTTP(w, req)
		})
	})
	r.clock, r.client = w.Clock, w.Client(exchange.Options{})
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	r.journal = j
	return r
}

// prepared prepares an authorization of the sandbox's builder in domain d
// and signs its file with the main account's key, as a wallet would.
func (r *rig) prepared(d signer.Domain) (builder.Prepared, [65]byte) {
	r.t.Helper()
	a, err := builder.Check(builder.Input{Main: sandbox.DemoAddress, Builder: sandbox.BuilderAddress, FuturesFee: "0.1", SpotFee: "0.05", Expires: "7d"})
	if err != nil {
		r.t.Fatal(err)
	}
	p, err := builder.Prepare(context.Background(), r.client, r.journal, builder.NewOrder(a, d, 4242, r.clock.Now()), r.clock.Now())
	if err != nil {
		r.t.Fatal(err)
	}
	k, _ := signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey)
	sig, err := k.SignTypedData(context.Background(), p.Domain, p.Message)
	if err != nil {
		r.t.Fatal(err)
	}
	return p, sig
}

// submit is `builder submit`: the file found in the journal, then sent.
func (r *rig) submit(file []byte, sig [65]byte) error {
	r.t.Helper()
	entries, err := r.journal.Entries()
	if err != nil {
		r.t.Fatal(err)
	}
	found, err := intent.Find(entries, journal.PreparedBuilder, r.client.Env().Name, "", file)
	if err != nil {
		return err
	}
	p, err := builder.PreparedOf(found)
	if err != nil {
		r.t.Fatal(err)
	}
	_, _, err = builder.Submit(context.Background(), r.client, r.journal, p, sig, r.clock.Now)
	return err
}

// wantRefused checks that err says why and no authorization was sent.
func (r *rig) wantRefused(err error, why string) {
	r.t.Helper()
	if err == nil || !strings.Contains(err.Error(), why) {
		r.t.Errorf("submitted: %v, want a refusal saying %q", err, why)
	}
	if n := r.authors.Load(); n != 0 {
		r.t.Errorf("%d authorization requests", n)
	}
}

// TestBuilderSubmitSendsOnce: a prepared authorization is sent once; sent
// again, by its file or as it was prepared, it is refused as submitted
// already, by the sent line written before its request left.
func TestBuilderSubmitSendsOnce(t *testing.T) {
	r := newRig(t)
	p, sig := r.prepared(r.client.Env().Domain())
	r.clock.Advance(time.Hour)
	if err := r.submit(p.File(), sig); err != nil || r.authors.Load() != 1 {
		t.Fatalf("submitted: %v, %d requests", err, r.authors.Load())
	}
	_, _, again := builder.Submit(context.Background(), r.client, r.journal, p, sig, r.clock.Now)
	for _, err := range []error{r.submit(p.File(), sig), again} {
		if !errors.As(err, new(*intent.SubmittedError)) || !strings.Contains(err.Error(), "nothing was sent again") {
			t.Errorf("sent again: %v", err)
		}
	}
	if n := r.authors.Load(); n != 1 {
		t.Errorf("%d authorization requests, want 1", n)
	}
}

// TestBuilderSubmitRefusals: an authorization prepared for another
// EIP-712 domain, one whose expiration lies further than MaxValidity past
// when its line says it was prepared, and one expired are not sent.
func TestBuilderSubmitRefusals(t *testing.T) {
	r := newRig(t)
	other := r.client.Env().Domain()
	other.ChainID++
	p, sig := r.prepared(other)
	_, _, err := builder.Submit(context.Background(), r.client, r.journal, p, sig, r.clock.Now)
	r.wantRefused(err, "another EIP-712 domain")

	p, sig = r.prepared(r.client.Env().Domain())
	early := p
	early.Line.Time = early.Line.Time.Add(-24 * 24 * time.Hour)
	_, _, err = builder.Submit(context.Background(), r.client, r.journal, early, sig, r.clock.Now)
	r.wantRefused(err, "more than 30 days after it was prepared")

	r.clock.Advance(builder.DefaultValidity)
	r.wantRefused(r.submit(p.File(), sig), "expired")
}

// TestBuilderPreparedBeforeTheUpgrade: an authorization prepared by an
// earlier version (a builder_prepared line, naming no service) is found,
// sent once, and then refused as submitted already.
func TestBuilderPreparedBeforeTheUpgrade(t *testing.T) {
	r := newRig(t)
	p, sig := r.prepared(r.client.Env().Domain())
	b, err := os.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`"kind":"prepared"(.*),"prepared":\{[^}]*\}`)
	old := line.ReplaceAllString(string(b), `"kind":"builder_prepared"$1`)
	// Nor did it name the service (intent.Prepared.Check holds a line
	// that names one to it).
	old = regexp.MustCompile(`,"service":\{[^}]*\}`).ReplaceAllString(old, "")
	if old == string(b) || strings.Contains(old, `"prepared":`) || strings.Contains(old, `"service":`) {
		t.Fatalf("not an earlier version's line:\n%s", old)
	}
	if err := os.WriteFile(r.journal.Path(), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	// An earlier version kept no record of what it wrote (journal.WrittenPath).
	if err := os.Remove(journal.WrittenPath(r.journal.Path())); err != nil {
		t.Fatal(err)
	}
	if err := r.submit(p.File(), sig); err != nil || r.authors.Load() != 1 {
		t.Fatalf("submitted: %v, %d requests", err, r.authors.Load())
	}
	if err := r.submit(p.File(), sig); !errors.As(err, new(*intent.SubmittedError)) || r.authors.Load() != 1 {
		t.Errorf("sent again: %v, %d requests", err, r.authors.Load())
	}
}

// TestBuilderSubmitRefusedOnAnotherHost: an authorization prepared while
// the environment reached one service is not submitted once its name
// reaches another host (a proxy, a config edited since), as a prepared
// Transfer is not: its name and EIP-712 domain matched, so the signature
// went to a host that never had the prepared line.
func TestBuilderSubmitRefusedOnAnotherHost(t *testing.T) {
	r := newRig(t)
	p, sig := r.prepared(r.client.Env().Domain())
	moved, was := r.client.Env(), r.client.Env().Service()
	to, err := url.Parse(moved.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(httputil.NewSingleHostReverseProxy(to))
	t.Cleanup(proxy.Close)
	moved.BaseURL, moved.AuthURL = proxy.URL, proxy.URL
	r.client = exchange.New(moved, exchange.Options{Now: r.clock.Now})
	err = r.submit(p.File(), sig)
	r.wantRefused(err, "was made for "+was.String())
	if err != nil && !strings.Contains(err.Error(), r.client.Env().Service().String()) {
		t.Errorf("said %q; want the service reached now named", err)
	}
}
