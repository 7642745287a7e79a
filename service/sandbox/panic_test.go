package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestPanicLeavesTheSandboxServing: a handler that panics under the
// sandbox's lock, or as the lock is taken, is answered 500 with the
// service's unknown error (1005) in words, the log says what and where,
// and the next request is served: the lock a panic kept froze the sandbox
// for good. One that panics after its answer began has its connection
// ended, and the next request is served too.
func TestPanicLeavesTheSandboxServing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		arrange func(h *harness) http.HandlerFunc
		began   bool
	}{
		{name: "under the lock", arrange: func(h *harness) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				_ = h.ex.respond(w, func(time.Time) (reply, *apiError) {
					panic("the handler failed")
				})
			}
		}},
		{name: "as the lock is taken", arrange: func(h *harness) http.HandlerFunc {
			failed := false // read under the sandbox's lock, as its clock is
			h.ex.now = func() time.Time {
				if !failed {
					failed = true
					panic("the clock failed")
				}
				return h.clock.Now()
			}
			return func(w http.ResponseWriter, r *http.Request) {
				_ = h.ex.respond(w, func(now time.Time) (reply, *apiError) { return reply{body: now}, nil })
			}
		}},
		{name: "after the answer began", began: true, arrange: func(h *harness) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(http.StatusOK)
				_, _ = w.Write([]byte("{"))
				panic("half an answer")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			const path = "/test/panics"
			handler := tc.arrange(h)
			h.ex.routes[path] = route{http.MethodGet, func(w http.ResponseWriter, r *http.Request) *apiError {
				handler(w, r)
				return nil
			}}
			resp, err := h.client.Get(h.url + path)
			switch {
			case tc.began:
				if err == nil {
					_, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				if err == nil {
					t.Error("an answer cut by a panic was read whole")
				}
			case err != nil:
				t.Fatalf("the panicking request: %v", err)
			default:
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				var e exchange.ErrorBody
				if resp.StatusCode != http.StatusInternalServerError || json.Unmarshal(body, &e) != nil || e.Code != int(exchange.CodeUnknown) || e.Status != 500 ||
					!strings.Contains(e.Message, "the sandbox failed on this request") || !strings.Contains(e.Message, "send it again") {
					t.Errorf("the panicking request: %d %s; want 500, code 1005, what happened and what to do", resp.StatusCode, body)
				}
			}
			said := h.panicked.Swap(nil)
			if said == nil || !strings.Contains(*said, "panic_test.go:") {
				t.Errorf("the sandbox's log said %v of the panic; want where it was raised", said)
			}
			wantStatus(t, h.do(http.MethodGet, exchange.PathTime, nil, nil), http.StatusOK)
		})
	}
}

// TestPanicLogNamesNoData: the log says a runtime error in its own words,
// which name no data, and of any other panic value only its type, which
// may hold what a request carried.
func TestPanicLogNamesNoData(t *testing.T) {
	var counts map[string]int
	func() {
		defer func() {
			if got := panicValue(recover()); got != "assignment to entry in nil map" {
				t.Errorf("a runtime error logged as %q", got)
			}
		}()
		counts["asked"]++
	}()
	if got := panicValue("key 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"); got != "string" {
		t.Errorf("a string panic logged as %q; want its type alone", got)
	}
}
