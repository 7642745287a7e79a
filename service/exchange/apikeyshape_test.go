package exchange_test

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestAPIKeyOfAKeyShapeNeverSent: a private key given where an API key
// goes (typed in the API key's place, in the API key's variable, in
// pieces or without its leading zeros), or a recovery phrase or an
// extended private key, is sent neither to log in nor in a
// deposit request's header, and the error repeats none of it; an API key
// is sent.
func TestAPIKeyOfAKeyShapeNeverSent(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	var asked atomic.Int32
	h.set(func(_ string, body []byte) []byte {
		asked.Add(1)
		return body
	})
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	for _, given := range []string{key, "0x" + key[2:], key[:32] + ":" + key[32:], strings.ToUpper(key[:8]) + "-" + key[8:]} {
		_, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(given))
		if !errors.Is(err, exchange.ErrAPIKeyKeyShape) || !exchange.NotSent(err) || strings.Contains(err.Error(), key[8:16]) {
			t.Errorf("a key of %d characters as the API key to log in: %v", len(given), err)
		}
		_, err = w.Client(exchange.Options{APIKey: given}).DepositAddresses(ctx)
		if !errors.Is(err, exchange.ErrAPIKeyKeyShape) || strings.Contains(err.Error(), key[8:16]) {
			t.Errorf("a key of %d characters as the deposit API key: %v", len(given), err)
		}
	}
	// A recovery phrase (numbered too) and an extended private key are
	// a wallet's secret as a key is, pasted at the same question.
	const phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
	for _, given := range []string{phrase, "1. legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal 10. winner 11. thank 12. yellow",
		"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"} {
		_, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(given))
		if !errors.Is(err, exchange.ErrAPIKeyKeyShape) || !exchange.NotSent(err) || strings.Contains(err.Error(), "sausage") || strings.Contains(err.Error(), given[8:24]) {
			t.Errorf("%.12q… as the API key to log in: %v", given, err)
		}
		_, err = w.Client(exchange.Options{APIKey: given}).DepositAddresses(ctx)
		if !errors.Is(err, exchange.ErrAPIKeyKeyShape) {
			t.Errorf("%.12q… as the deposit API key: %v", given, err)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("%d requests sent with a wallet's secret as the API key", n)
	}
	if _, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(sandbox.DemoAPIKey)); err != nil || asked.Load() == 0 {
		t.Fatalf("an API key: %v after %d requests", err, asked.Load())
	}
}
