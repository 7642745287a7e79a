package sandbox

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestSeedRoute: with Seeding, POST /sandbox/seed records count pending
// withdrawals of the API key's account, each found by its quote id
// (SUBMITTED) and its status asks logged with the id; without it, or with
// an unknown key or a count out of bounds, nothing is seeded.
func TestSeedRoute(t *testing.T) {
	var log bytes.Buffer
	h := newHarness(t, Options{Seeding: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	key := map[string]string{exchange.HeaderAPIKey: DemoAPIKey}
	r := h.do(http.MethodPost, PathSeed, SeedRequest{Count: 3}, key)
	wantStatus(t, r, http.StatusOK)
	var got SeedAnswer
	decode(t, r.body, &got)
	if len(got.QuoteIDs) != 3 {
		t.Fatalf("seeded %d, want 3", len(got.QuoteIDs))
	}
	s := h.login(DemoAPIKey)
	for _, id := range got.QuoteIDs {
		st := s.do(http.MethodGet, exchange.PathWithdrawalStatus+"?quote_id="+id, nil)
		wantStatus(t, st, http.StatusOK)
		var w exchange.Withdrawal
		decode(t, st.body, &w)
		if w.State != exchange.StateSubmitted || w.TxID == "" {
			t.Fatalf("seeded %s is %s (tx %q), want SUBMITTED with a transfer id", id, w.State, w.TxID)
		}
		if !strings.Contains(log.String(), "quote_id="+id) {
			t.Fatalf("the status ask of %s is not logged with its id:\n%s", id, log.String())
		}
	}
	wantError(t, h.do(http.MethodPost, PathSeed, SeedRequest{Count: MaxSeed + 1}, key), exchange.CodeMalformed, "count")
	wantError(t, h.do(http.MethodPost, PathSeed, SeedRequest{Count: 0}, key), exchange.CodeMalformed, "count")
	wantError(t, h.do(http.MethodPost, PathSeed, SeedRequest{Count: 1}, map[string]string{exchange.HeaderAPIKey: "nope"}), exchange.CodeNotAuthenticated)
	wantError(t, h.do(http.MethodPost, PathSeed, SeedRequest{Count: 1, To: DestFlagged + "0"}, key), exchange.CodeBadAddress)

	off := newHarness(t, Options{})
	wantError(t, off.do(http.MethodPost, PathSeed, SeedRequest{Count: 1}, key), exchange.CodeNoSuchEndpoint)
}
