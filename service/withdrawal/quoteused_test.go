package withdrawal_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/loopback"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// TestQuoteUsedIsNotARefusal: a withdraw answered "this quote was already
// executed with another signature" (409, 9108) is the service saying the
// quote was paid, not that nothing was: it is never journaled REFUSED
// ("nothing was debited"); it is lost, and settling it asks the status,
// which finds the withdrawal the quote made. Here the service executes the
// request and answers 9108 all the same.
func TestQuoteUsedIsNotARefusal(t *testing.T) {
	for name, used := range map[string]string{
		"9108": `{"code":9108,"message":"this quote was already executed with another signature","status":409}`,
		// The interface names no code for it: a 409 without a code of its
		// own is taken alike.
		"409 without a code": `{"message":"conflict","status":409}`,
	} {
		t.Run(name, func(t *testing.T) { quoteUsedIsLost(t, http.StatusConflict, used) })
	}
}

// TestUnnamed4xxIsNotARefusal: a withdraw answered with a 4xx the spec and
// D7 give no meaning (a gateway's 408 after passing the request on, a
// proxy's 418, 422 or 451), without a code the client knows, says nothing
// of whether it executed: it is lost (UNANSWERED, the repeat guard
// holding), never journaled REFUSED, whereupon the same withdrawal signed
// again would pay twice. Here the service executes the request, and its
// settle's re-send is answered alike: an answer, so its status is asked,
// and tells it arrived (it stayed "no answer" while paid).
func TestUnnamed4xxIsNotARefusal(t *testing.T) {
	for _, status := range []int{http.StatusRequestTimeout, http.StatusTeapot, http.StatusUnprocessableEntity, http.StatusUnavailableForLegalReasons, 499} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			quoteUsedIsLost(t, status, `{"code":4321,"message":"not processed"}`)
		})
	}
}

// TestRedirectIsNotARefusal: a withdraw answered with a redirect (3xx),
// which the interface gives no meaning, says nothing of whether it
// executed: a 303 See Other is how a service says "done, look there"
// after a POST. It is lost, the repeat guard holding, never journaled
// REFUSED, whereupon the same withdrawal signed again would pay twice.
// Here the service executes the request, and the settle finds it arrived.
func TestRedirectIsNotARefusal(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			quoteUsedIsLost(t, status, `{"message":"see the withdrawal's status"}`)
		})
	}
}

// quoteUsedIsLost sends a withdrawal the service executes and answers
// used with status: it is lost, said as one that may have been paid,
// never as a refusal, and its settle finds it arrived.
func quoteUsedIsLost(t *testing.T, status int, used string) {
	t.Helper()
	w := newWorld(t, sandbox.Options{})
	proxy := &http.Client{Transport: loopback.RoundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err == nil && req.URL.Path == exchange.PathWithdraw {
			resp.Body.Close()
			return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(used)), Request: req}, nil
		}
		return resp, err
	})}
	c, j, wd := w.through(t, proxy)
	key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
	sent := wd.Execute(context.Background(), w.order(c), key)
	if bal := w.Ex.Balance(sandbox.DemoAccountID); !bal.Equal(decimal.RequireFromString("9975")) {
		t.Fatalf("balance %s: the request was not executed", bal)
	}
	recs := mustRecords(t, c, j)
	if len(recs) != 1 {
		t.Fatalf("records %+v", recs)
	}
	if o := follow.RecordOutcome(recs[0]); sent.Lost == nil || o.Name != follow.LabelUnanswered {
		t.Fatalf("answered %s, the withdrawal is %s (%s), lost %v", used, o.Name, o.Sentence(), sent.Lost != nil)
	}
	if words := exchange.Explain(sent.Err).Error(); strings.Contains(words, "new quote") || strings.Contains(words, "refused") || !strings.Contains(words, "may have been paid") {
		t.Errorf("answered %s, it is said %q", used, words)
	}
	settled := wd.Settle(context.Background(), *sent.Lost)
	if settled.Outcome != withdrawal.SettledArrived {
		t.Fatalf("settled as %d (%v), want arrived", settled.Outcome, settled.Err)
	}
}

// TestUnnamed4xxResendDecidesNothing: a withdrawal the service never took,
// answered with a 409 or a 4xx the interface gives no meaning
// (exchangetest.Conflicts) and re-sent to the same answer while its quote
// may still execute, is undecided (the record unanswered, the repeat guard
// holding), and its fact says no refusal, nor a next step of its own.
func TestUnnamed4xxResendDecidesNothing(t *testing.T) {
	for name, c := range exchangetest.Conflicts {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t, sandbox.Options{})
			proxy := &http.Client{Transport: loopback.RoundTripFunc(func(req *http.Request) (*http.Response, error) {
				if req.URL.Path == exchange.PathWithdraw {
					return &http.Response{StatusCode: c.Status, Header: http.Header{"Content-Type": {"application/json"}},
						Body: io.NopCloser(strings.NewReader(c.Body)), Request: req}, nil
				}
				return http.DefaultTransport.RoundTrip(req)
			})}
			cl, j, wd := w.through(t, proxy)
			key := func() (signer.Key, error) { return loopback.MustKey(t, sandbox.DemoPrivateKey), nil }
			sent := wd.Execute(context.Background(), w.order(cl), key)
			if sent.Lost == nil || !sent.Answered() {
				t.Fatalf("sent %+v: want it lost, said as answered", sent)
			}
			settled := wd.Settle(context.Background(), *sent.Lost)
			if fact := settled.Fact(); settled.Outcome != withdrawal.SettledUndecided || strings.Contains(fact, "refused") || strings.Contains(fact, "look up") {
				t.Fatalf("settled as %d (%s), want undecided, no refusal nor next step said", settled.Outcome, fact)
			}
			if recs := mustRecords(t, cl, j); len(recs) != 1 || follow.RecordOutcome(recs[0]).Name != follow.LabelUnanswered {
				t.Fatalf("records %+v: want it unanswered", recs)
			}
		})
	}
}
