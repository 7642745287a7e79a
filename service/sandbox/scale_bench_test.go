package sandbox

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// benchRig drives an Exchange on a fake clock through its handler, with no
// network, so a benchmark times the sandbox and nothing else.
type benchRig struct {
	tb    testing.TB
	clock *exchangetest.FakeClock
	ex    *Exchange
}

func newBenchRig(tb testing.TB, opts Options) *benchRig {
	clock := exchangetest.NewFakeClock(t0)
	opts.Now = clock.Now
	return &benchRig{tb: tb, clock: clock, ex: New(opts)}
}

func (r *benchRig) serve(req *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	r.ex.ServeHTTP(w, req)
	return w
}

// login logs in with the demo key and returns the headers of its session.
func (r *benchRig) login() http.Header {
	req := httptest.NewRequest(http.MethodPost, exchange.PathAPIKeyLogin, strings.NewReader(`{"api_key":"`+DemoAPIKey+`"}`))
	w := r.serve(req)
	if w.Code != http.StatusOK {
		r.tb.Fatalf("login: %d %s", w.Code, w.Body)
	}
	h := http.Header{}
	for _, c := range w.Result().Cookies() {
		h.Set("Cookie", c.Name+"="+c.Value)
	}
	h.Set(config.HeaderAccountID, w.Header().Get(config.HeaderAccountID))
	return h
}

// fillSessions logs in n times, leaving n live sessions.
func (r *benchRig) fillSessions(n int) {
	for range n {
		r.login()
	}
}

// BenchmarkLogin is an API key login while n sessions are live (each
// login ends the oldest, MaxSessions being n): flat in n.
func BenchmarkLogin(b *testing.B) {
	for _, n := range []int{0, 10_000, 100_000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			r := newBenchRig(b, Options{MaxSessions: max(n, 1)})
			r.fillSessions(n)
			body := `{"api_key":"` + DemoAPIKey + `"}`
			for b.Loop() {
				r.serve(httptest.NewRequest(http.MethodPost, exchange.PathAPIKeyLogin, strings.NewReader(body)))
			}
		})
	}
}

// statusRig is a seeded withdrawal, a session to ask for it with and the
// exact bytes of its status answer.
func statusRig(b *testing.B, sessions int) (*benchRig, http.Header, string, []byte) {
	r := newBenchRig(b, Options{MaxSessions: sessions + 1})
	r.fillSessions(sessions)
	id, err := r.ex.SeedWithdrawal(DemoAccountID, DestCompleted, "BASE", "25")
	if err != nil {
		b.Fatal(err)
	}
	hdr := r.login()
	path := exchange.PathWithdrawalStatus + "?quote_id=" + id
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header = hdr.Clone()
	w := r.serve(req)
	if w.Code != http.StatusOK {
		b.Fatalf("status: %d %s", w.Code, w.Body)
	}
	return r, hdr, path, w.Body.Bytes()
}

// bare answers body as the sandbox does, with nothing else: the baseline
// a status answer is compared with.
func bare(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
}

// BenchmarkStatusHandler times the status handler alone (no network) while
// n sessions are live, and a bare handler writing the same bytes.
func BenchmarkStatusHandler(b *testing.B) {
	for _, n := range []int{0, 10_000, 100_000} {
		b.Run(fmt.Sprintf("sandbox/sessions=%d", n), func(b *testing.B) {
			r, hdr, path, _ := statusRig(b, n)
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.Header = hdr
			for b.Loop() {
				r.ex.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
	b.Run("bare", func(b *testing.B) {
		_, _, path, body := statusRig(b, 0)
		h, req := bare(body), httptest.NewRequest(http.MethodGet, path, nil)
		for b.Loop() {
			h.ServeHTTP(httptest.NewRecorder(), req)
		}
	})
}

// BenchmarkStatusVsBare is a status call's throughput over loopback HTTP
// with keep-alive, next to a bare net/http server answering the same bytes.
// Batches to the two alternate, so load from elsewhere on the machine falls
// on both alike; it reports each one's time per call and the ratio of their
// throughputs (bare time / sandbox time: 1 is as fast as bare). The client's
// own cost is in both.
func BenchmarkStatusVsBare(b *testing.B) {
	for _, n := range []int{0, 100_000} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			r, hdr, path, body := statusRig(b, n)
			sandbox, plain := httptest.NewServer(r.ex), httptest.NewServer(bare(body))
			defer sandbox.Close()
			defer plain.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: statusClients}
			defer tr.CloseIdleConnections()
			client := &http.Client{Transport: tr}
			var inSandbox, inPlain time.Duration
			for b.Loop() {
				inSandbox += statusBatch(b, client, sandbox.URL+path, hdr)
				inPlain += statusBatch(b, client, plain.URL+path, hdr)
			}
			calls := float64(b.N * statusBatchSize)
			b.ReportMetric(float64(inSandbox.Nanoseconds())/calls, "sandbox-ns/call")
			b.ReportMetric(float64(inPlain.Nanoseconds())/calls, "bare-ns/call")
			b.ReportMetric(float64(inPlain)/float64(inSandbox), "throughput-ratio")
		})
	}
}

const (
	statusClients   = 8   // concurrent keep-alive connections
	statusBatchSize = 400 // calls a batch, spread over the clients
)

// statusBatch makes statusBatchSize GET calls to url from statusClients
// goroutines and returns how long they took.
func statusBatch(b *testing.B, client *http.Client, url string, hdr http.Header) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for range statusClients {
		wg.Go(func() {
			for range statusBatchSize / statusClients {
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				req.Header = hdr.Clone()
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// BenchmarkQuoteMemory makes m quotes, lets them expire and be dropped,
// and reports the heap they leave behind (retained-B): bounded, whatever m.
func BenchmarkQuoteMemory(b *testing.B) {
	for _, m := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("quotes=%d", m), func(b *testing.B) {
			var retained uint64
			for b.Loop() {
				retained = quoteMemory(b, m)
			}
			b.ReportMetric(float64(retained), "retained-B")
		})
	}
}

func quoteMemory(b *testing.B, m int) uint64 {
	r := newBenchRig(b, Options{})
	hdr := r.login()
	before := heapInUse()
	body := `{"to_address":"` + DestCompleted + `","chain":"BASE","token_in":"USDT","token_out":"USDT","amount":"10"}`
	for i := range m {
		if i%500 == 0 {
			r.clock.Advance(DefaultQuoteTTL)
		}
		req := httptest.NewRequest(http.MethodPost, exchange.PathWithdrawalQuote, strings.NewReader(body))
		req.Header = hdr
		if w := r.serve(req); w.Code != http.StatusOK {
			b.Fatalf("quote %d: %d %s", i, w.Code, w.Body)
		}
	}
	r.clock.Advance(DefaultSessionTTL / 2)
	r.login() // any request prunes what expired
	after := heapInUse()
	runtime.KeepAlive(r.ex)
	return max(after, before) - before
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkSeedWithdrawal seeds one withdrawal more on an account that
// already holds every one seeded before: flat, so seeding n costs O(n).
func BenchmarkSeedWithdrawal(b *testing.B) {
	r := newBenchRig(b, Options{})
	for b.Loop() {
		if _, err := r.ex.SeedWithdrawal(DemoAccountID, DestCompleted, "BASE", "25"); err != nil {
			b.Fatal(err)
		}
	}
}
