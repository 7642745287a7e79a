package sandbox

import (
	"net/http"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestARepeatedFieldIsMalformed: every endpoint that takes a body refuses
// one naming a field twice (in any case, at any depth) as malformed (1003),
// where encoding/json alone would take the last: {"amount":"1",
// "amount":"1000"} quoted 1000.
func TestARepeatedFieldIsMalformed(t *testing.T) {
	h := newHarness(t, Options{Seeding: true})
	s := h.login(DemoAPIKey)
	quote := `{"to_address":"` + DestCompleted + `","chain":"BASE","token_in":"USDT","token_out":"USDT","amount":"1","amount":"1000"}`
	cases := []struct {
		path, body string
		session    bool
		hdr        map[string]string
		field      string
	}{
		{exchange.PathAPIKeyLogin, `{"api_key":"x","api_key":"` + DemoAPIKey + `"}`, false, nil, `"api_key"`},
		{exchange.PathWalletLogin, `{"address":"` + DemoAddress + `","ADDRESS":"` + DemoAddress + `"}`, false, nil, `"ADDRESS"`},
		{exchange.PathBuilderAuthorize, `{"main_account_id":"a","main_account_id":"b"}`, false, nil, `"main_account_id"`},
		{exchange.PathGenerateAddress, `{"chain":"BASE","Chain":"SOLANA"}`, true, nil, `"Chain"`},
		{exchange.PathWithdrawalQuote, quote, true, nil, `"amount"`},
		{exchange.PathWithdraw, `{"quote_id":"q","signature":{"v":27,"v":28}}`, true, nil, `"v"`},
		{PathSeed, `{"count":1,"count":2}`, false, map[string]string{exchange.HeaderAPIKey: DemoAPIKey}, `"count"`},
	}
	for _, c := range cases {
		var r response
		if c.session {
			r = s.do(http.MethodPost, c.path, c.body)
		} else {
			r = h.do(http.MethodPost, c.path, c.body, c.hdr)
		}
		t.Run(c.path, func(t *testing.T) { wantError(t, r, exchange.CodeMalformed, c.field, "twice") })
	}
	// The same quote with the amount once is quoted: the refusal is the
	// repetition's.
	wantStatus(t, s.do(http.MethodPost, exchange.PathWithdrawalQuote, `{"to_address":"`+DestCompleted+`","chain":"BASE","token_in":"USDT","token_out":"USDT","amount":"1000"}`), http.StatusOK)
}

// TestFoldedMatchesEncodingJSON: names encoding/json matches to one field
// fold alike, and others do not.
func TestFoldedMatchesEncodingJSON(t *testing.T) {
	for _, p := range [][2]string{{"amount", "AMOUNT"}, {"kind", "\u212aind"}, {"sum", "\u017fum"}} {
		if folded(p[0]) != folded(p[1]) {
			t.Errorf("%q and %q fold apart; encoding/json matches them", p[0], p[1])
		}
	}
	if folded("amount") == folded("amounts") {
		t.Error("amount and amounts fold alike")
	}
}

// TestAFieldSpelledOtherwiseIsMalformed: every endpoint that takes a body
// refuses a field named in another case than SPEC.md spells it (at any
// depth) as malformed (1003), naming both: encoding/json alone takes
// {"Signature":{"Nonce":3,…}}, which a service reading names as spelled
// finds without a signature, so a client whose request lost its json
// tags passed every sandbox test.
func TestAFieldSpelledOtherwiseIsMalformed(t *testing.T) {
	h := newHarness(t, Options{Seeding: true})
	s := h.login(DemoAPIKey)
	demo := key(t, DemoPrivateKey)
	q := s.quote(DestCompleted, "BASE", "10")
	withdraw := toMap(t, s.withdrawBody(q, demo, DemoAddress, 3))
	withdraw["Signature"] = withdraw["signature"]
	delete(withdraw, "signature")
	nonce := toMap(t, s.withdrawBody(q, demo, DemoAddress, 3))
	sigMap(nonce)["Nonce"] = sigMap(nonce)["nonce"]
	delete(sigMap(nonce), "nonce")
	cases := []struct {
		path      string
		body      any
		session   bool
		hdr       map[string]string
		got, want string
	}{
		{exchange.PathAPIKeyLogin, `{"API_KEY":"` + DemoAPIKey + `"}`, false, nil, `"API_KEY"`, `"api_key"`},
		{exchange.PathGenerateAddress, `{"Chain":"BASE"}`, true, nil, `"Chain"`, `"chain"`},
		{exchange.PathWithdrawalQuote, `{"to_address":"` + DestCompleted + `","chain":"BASE","token_in":"USDT","token_out":"USDT","Amount":"1"}`, true, nil, `"Amount"`, `"amount"`},
		{exchange.PathWithdraw, withdraw, true, nil, `"Signature"`, `"signature"`},
		{exchange.PathWithdraw, nonce, true, nil, `"Nonce"`, `"nonce"`},
		{PathSeed, `{"COUNT":1}`, false, map[string]string{exchange.HeaderAPIKey: DemoAPIKey}, `"COUNT"`, `"count"`},
	}
	for _, c := range cases {
		var r response
		if c.session {
			r = s.do(http.MethodPost, c.path, c.body)
		} else {
			r = h.do(http.MethodPost, c.path, c.body, c.hdr)
		}
		t.Run(c.path+" "+c.got, func(t *testing.T) { wantError(t, r, exchange.CodeMalformed, c.got, c.want) })
	}
	wantBalance(t, h, DemoAccountID, "10000")
	// The same withdrawal with its names as spelled is taken: the refusal
	// is the spelling's.
	wantStatus(t, s.withdraw(s.withdrawBody(q, demo, DemoAddress, 3)), http.StatusAccepted)
}
