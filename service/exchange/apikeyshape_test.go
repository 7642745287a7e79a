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

// TestAPIKeyThatCannotBeOneNeverSent: an API key holding what none holds,
// a byte-order mark or a zero-width space a copy brought along, a
// lookalike letter, a space or a line break inside, is sent neither to log
// in nor in a deposit request's header, and says what and where, never the
// key: plain mode, the console and status sent it, and words the 401 as a
// key that is not the account's, while auth login refused it unsent. The
// spaces and line breaks around a key (a file's CRLF) are not the key's.
func TestAPIKeyThatCannotBeOneNeverSent(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	var asked atomic.Int32
	h.set(func(_ string, body []byte) []byte {
		asked.Add(1)
		return body
	})
	key := sandbox.DemoAPIKey
	for given, says := range map[string]string{
		"\ufeff" + key:           "holds an invisible character U+FEFF at position 1: delete it (it came with the paste)",
		key + "\u200b":           "holds an invisible character U+200B at position 17: delete it",
		"s\u0430ndbox-demo-key":  "holds a non-Latin look-alike (U+0430) at position 2: retype that letter",
		"sandbox demo-key":       "holds a space at position 8: API keys have none",
		"sandbox-demo\r\n-key":   "holds an invisible character U+000D at position 13: delete it",
		"sandbox-\xffdemo-key":   "holds a byte that is not text at position 9: copy the key again",
		"sandbox-demo-key\u2603": "holds a character U+2603 at position 17: API keys hold only ASCII",
	} {
		_, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(given))
		if _, ok := errors.AsType[*exchange.APIKeyShapeError](err); !ok || !exchange.NotSent(err) ||
			!strings.HasPrefix(err.Error(), "the API key given "+says) || !strings.HasSuffix(err.Error(), "; nothing was sent") || strings.Contains(err.Error(), "demo") {
			t.Errorf("%q as the API key to log in: %v", given, err)
		}
		_, err = w.Client(exchange.Options{APIKey: given}).DepositAddresses(ctx)
		if _, ok := errors.AsType[*exchange.APIKeyShapeError](err); !ok {
			t.Errorf("%q as the deposit API key: %v", given, err)
		}
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("%d requests sent with an API key none can be", n)
	}
	for _, given := range []string{" " + key + "\r\n", key + "\n"} {
		if _, err := w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(given)); err != nil {
			t.Errorf("%q, the key with a copy's spaces around it: %v", given, err)
		}
		if _, err := w.Client(exchange.Options{APIKey: given}).DepositAddresses(ctx); err != nil {
			t.Errorf("%q as the deposit API key: %v", given, err)
		}
	}
}
