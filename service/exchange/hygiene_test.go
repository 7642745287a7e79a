package exchange_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// syncBuffer collects log output from the client and the sandbox goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// secret is a value that must not leak; any window of its characters that
// long is a leak too (0 = the whole value only).
type secret struct {
	value  string
	window int
}

// keySecret is a hex private key: found with or without 0x, and any 16 hex
// digits of it in a row count.
func keySecret(hexKey string) secret {
	return secret{strings.TrimPrefix(hexKey, "0x"), 16}
}

// leaks lists the secrets (by label) found in text, ignoring case.
func leaks(text string, secrets map[string]secret) []string {
	text = strings.ToLower(text)
	var found []string
	for label, sec := range secrets {
		v := strings.ToLower(sec.value)
		n := sec.window
		if n <= 0 || n > len(v) {
			n = len(v)
		}
		for i := 0; n > 0 && i+n <= len(v); i++ {
			if strings.Contains(text, v[i:i+n]) {
				found = append(found, label)
				break
			}
		}
	}
	sort.Strings(found)
	return found
}

// TestHygieneDetector: the detector finds each form a secret can take.
func TestHygieneDetector(t *testing.T) {
	secrets := map[string]secret{"key": keySecret(sandbox.DemoPrivateKey), "api key": {sandbox.DemoAPIKey, 0}, "cookie": {"OJ4AZQPOXZSEKAVQ6BHYS3GXKA", 12}}
	for _, text := range []string{
		"key=" + sandbox.DemoPrivateKey,
		"key=" + strings.ToUpper(sandbox.DemoPrivateKey[2:]),
		"part=" + sandbox.DemoPrivateKey[30:46],
		`{"api_key":"SANDBOX-DEMO-KEY"}`,
		"svc=OJ4AZQPOXZSE…",
	} {
		if len(leaks(text, secrets)) == 0 {
			t.Errorf("detector misses %q", text)
		}
	}
	if got := leaks("path=/auth/api_key/login status=200 account_id=acct-5f1c2e9a", secrets); len(got) != 0 {
		t.Errorf("detector false positive: %v", got)
	}
}

// TestHygieneNoSecretsAnywhere runs the whole flow with debug logging on in
// the client and the sandbox: API-key and wallet (keystore) login, deposit
// in X-API-Key mode, quote, sign, journal, withdraw, follow to COMPLETED,
// builder authorization with an API key and a login with that key, plus a
// set of failing calls. No private key, API key, session cookie or
// passphrase may appear in the logs, the error strings or the journal.
func TestHygieneNoSecretsAnywhere(t *testing.T) {
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	jsonLogger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	w := newWorld(t, sandbox.Options{Logger: jsonLogger})
	rec := &recorder{}
	opts := func(apiKey string) exchange.Options {
		return exchange.Options{Logger: logger, HTTPClient: rec.HTTPClient(), APIKey: apiKey}
	}
	var errs []string
	noteErr := func(err error) {
		t.Helper()
		if err == nil {
			t.Fatal("a call that must fail succeeded")
		}
		errs = append(errs, err.Error(), fmt.Sprintf("%v|%+v|%#v", err, err, err))
	}
	const passphrase = "hygiene-passphrase-7f3a"
	const wrongAPIKey = "sandbox-typo-key-93c1"
	secrets := map[string]secret{
		"demo private key":    keySecret(sandbox.DemoPrivateKey),
		"bot private key":     keySecret(sandbox.NoChainPrivateKey),
		"builder private key": keySecret(sandbox.BuilderPrivateKey),
		"demo api key":        {sandbox.DemoAPIKey, 0},
		"mistyped api key":    {wrongAPIKey, 0},
		"passphrase":          {passphrase, 0},
	}

	// Keys: a keystore file (wrong passphrase first) and a bad raw hex key.
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	ksDir := filepath.Join(t.TempDir(), "keystore")
	_, ksPath, err := signer.ImportRawKey(ksDir, sandbox.DemoPrivateKey, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	_, err = signer.LoadKeystoreKey(ksPath, passphrase+"x")
	noteErr(err)
	demo, err := signer.LoadKeystoreKey(ksPath, passphrase)
	if err != nil {
		t.Fatal(err)
	}
	_, err = signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey[:65] + "g")
	noteErr(err)
	_, err = signer.ParsePrivateKeyHex(sandbox.DemoPrivateKey + "00")
	noteErr(err)
	// A key object logged by mistake shows only its address.
	logger.Debug("key object", "key", demo, "deref", *demo)
	jsonLogger.Debug("key object", "key", demo)
	errs = append(errs, fmt.Sprintf("%v %+v %#v %s %x %q", demo, demo, demo, demo, demo, demo))

	// Logins: a mistyped API key, the right one, and the wallet.
	_, err = w.Client(opts("")).Login(ctx, exchange.APIKey(wrongAPIKey))
	noteErr(err)
	c := w.Client(opts(""))
	if _, err := c.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		t.Fatal(err)
	}
	wc := w.Client(opts(""))
	if _, err := wc.Login(ctx, exchange.Wallet(demo)); err != nil {
		t.Fatal(err)
	}
	// A login to a host that is not there.
	gone := exchange.New(config.SandboxEnvironment("http://127.0.0.1:1", sandbox.DefaultChainID), exchange.Options{Logger: logger})
	_, err = gone.Login(ctx, exchange.APIKey(sandbox.DemoAPIKey))
	noteErr(err)

	// Deposit with the key in X-API-Key, and with a mistyped one.
	dc := w.Client(opts(sandbox.DemoAPIKey))
	if _, err := dc.DepositAddresses(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = w.Client(opts(wrongAPIKey)).DepositAddresses(ctx)
	noteErr(err)

	// Withdraw, journaled as the review screen does, then followed.
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	q, err := w.Quote(wc, sandbox.DestCompleted, "BASE", "25")
	if err != nil {
		t.Fatal(err)
	}
	req := w.signWithdraw(wc, q, demo, nil)
	s, _ := wc.Session()
	base := journal.Entry{Env: w.Env.Name, AccountID: s.AccountID, QuoteID: q.QuoteID}
	intent := base
	intent.Time, intent.Kind, intent.Request = w.Clock.Now(), journal.KindIntent, &req
	intent.Intent = &journal.Intent{ToAddress: sandbox.DestCompleted, Chain: "BASE", TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: q.PayAmount, ReceiveAmount: q.ReceiveAmount, ExpiresAt: q.ExpiresAt}
	if err := j.Append(intent); err != nil {
		t.Fatal(err)
	}
	if _, err := wc.Withdraw(ctx, req); err != nil {
		t.Fatal(err)
	}
	accepted := base
	accepted.Time, accepted.Kind = w.Clock.Now(), journal.KindAccepted
	if err := j.Append(accepted); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		w.Clock.Advance(sandbox.DefaultSettle / 2)
		st, err := c.WithdrawalStatus(ctx, q.QuoteID)
		if err != nil {
			t.Fatal(err)
		}
		e := base
		e.Time, e.Kind, e.State, e.TxHash = w.Clock.Now(), journal.KindState, st.State, st.WithdrawTxHash
		if err := j.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	// A refused withdraw, journaled with its error.
	bad := w.signWithdraw(c, q, demo, func(tr *signer.Transfer) { tr.NumTokens++ })
	_, err = c.Withdraw(ctx, bad)
	noteErr(err)
	refused := base
	refused.Time, refused.Kind, refused.Error = w.Clock.Now(), journal.KindRejected, err.Error()
	if err := j.Append(refused); err != nil {
		t.Fatal(err)
	}

	// Builder authorization with an API key, and a login with that key.
	bot := mustKey(t, sandbox.NoChainPrivateKey)
	res, err := c.AuthorizeBuilder(ctx, w.builderRequest(demo, bot.Address(), "Trade", 1, w.Clock.Now().Add(7*24*time.Hour)))
	if err != nil || res.APIKey == "" {
		t.Fatalf("authorize: %+v, %v", res, err)
	}
	secrets["builder api key"] = secret{res.APIKey, 12}
	bc := w.Client(opts(""))
	if _, err := bc.Login(ctx, exchange.APIKey(res.APIKey)); err != nil {
		t.Fatal(err)
	}
	_, err = c.AuthorizeBuilder(ctx, w.builderRequest(demo, bot.Address(), "Trade", 1, w.Clock.Now().Add(7*24*time.Hour)))
	noteErr(err)
	_, err = c.AuthorizeBuilder(ctx, w.builderRequest(demo, common.Address{}, "", 2, w.Clock.Now().Add(7*24*time.Hour)))
	if err != nil {
		t.Fatal(err)
	}

	// A session that lapses is renewed, and that too is logged.
	w.Clock.Advance(sandbox.DefaultSessionTTL)
	if _, err := c.WithdrawalInfo(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = c.WithdrawalStatus(context.Background(), "q-unknown")
	noteErr(err)

	for i, ck := range rec.Cookies() {
		secrets[fmt.Sprintf("session cookie %d", i+1)] = secret{ck, 12}
	}
	if len(rec.Cookies()) != 4 { // API key, wallet, builder key, renewal
		t.Fatalf("%d session cookies captured; the flow did not log in as planned", len(rec.Cookies()))
	}

	journal, err := os.ReadFile(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	logText := logs.String()
	for _, want := range []string{"logged in", "session lapsed", `"path":"/api/v1/bridge/withdraw"`, "path=/api/v1/bridge/withdraw status=202", "PrivateKey(" + sandbox.DemoAddress + ")"} {
		if !strings.Contains(logText, want) {
			t.Errorf("the log lacks %q: logging was not on everywhere\n%s", want, logText)
		}
	}
	if !strings.Contains(string(journal), `"kind":"state"`) {
		t.Errorf("journal lacks the followed states:\n%s", journal)
	}
	for _, place := range []struct{ name, text string }{
		{"log", logText}, {"error strings", strings.Join(errs, "\n")}, {"journal", string(journal)},
	} {
		if found := leaks(place.text, secrets); len(found) > 0 {
			t.Errorf("the %s holds secrets: %v\n%s", place.name, found, place.text)
		}
	}
}
