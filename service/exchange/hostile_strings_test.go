package exchange_test

import (
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// payloads are what an attacker puts into a string to act on the terminal,
// the clipboard or the reader's eye.
var payloads = map[string]string{
	"OSC 52":   "\x1b]52;c;ZWNobyBwd25lZA==\x07",
	"OSC 2":    "\x1b]2;owned\x1b\\",
	"CSI":      "\x1b[2J\x1b[31m",
	"C1 CSI":   "\u009b31m",
	"bidi":     "\u202e",
	"newline":  "\necho owned\n",
	"zero-wid": "\u200b",
}

// stringLeaves lists the paths of every string in a JSON value, sorted.
func stringLeaves(v any, prefix string, out *[]string) {
	switch x := v.(type) {
	case string:
		*out = append(*out, prefix)
	case map[string]any:
		for k, e := range x {
			stringLeaves(e, prefix+"/"+k, out)
		}
	case []any:
		for i, e := range x {
			stringLeaves(e, prefix+"/"+strconv.Itoa(i), out)
		}
	}
	sort.Strings(*out)
}

// inject returns v with payload added inside the string at path.
func inject(v any, path, payload string) any {
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	var walk func(v any, i int) any
	walk = func(v any, i int) any {
		if i == len(parts) {
			s := v.(string)
			return s[:len(s)/2] + payload + s[len(s)/2:]
		}
		switch x := v.(type) {
		case map[string]any:
			x[parts[i]] = walk(x[parts[i]], i+1)
		case []any:
			n, _ := strconv.Atoi(parts[i])
			x[n] = walk(x[n], i+1)
		}
		return v
	}
	return walk(v, 0)
}

// dirty finds, through every string of a Go value, a character that must
// never leave the service package.
func dirty(v reflect.Value) (string, bool) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if s != safetext.Text(s) {
			return s, true
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				if s, bad := dirty(v.Field(i)); bad {
					return s, true
				}
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if s, bad := dirty(v.Index(i)); bad {
				return s, true
			}
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			if s, bad := dirty(k); bad {
				return s, true
			}
			if s, bad := dirty(v.MapIndex(k)); bad {
				return s, true
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return dirty(v.Elem())
		}
	}
	return "", false
}

// TestHostileStringsNeverLeaveTheService puts each payload into every string
// of every answer, one at a time: the client either refuses the answer or
// returns only clean strings, and errors carry none either.
func TestHostileStringsNeverLeaveTheService(t *testing.T) {
	w, h := newHostileWorld(t, sandbox.Options{})
	c := w.Login(sandbox.DemoAPIKey, exchange.Options{Retry: exchange.RetryPolicy{Attempts: 1, Sleep: noSleep}})
	key := mustKey(t, sandbox.DemoPrivateKey)

	// Each endpoint with a call that returns its decoded answer; the sample
	// is taken through a clean pass to find the strings to attack.
	var quoteID string
	endpoints := []struct {
		path string
		call func() (any, error)
	}{
		{exchange.PathAPIKeyLogin, func() (any, error) {
			return w.Client(exchange.Options{}).Login(ctx, exchange.APIKey(sandbox.DemoAPIKey))
		}},
		{exchange.PathDepositAddresses, func() (any, error) { return c.DepositAddresses(ctx) }},
		{exchange.PathGenerateAddress, func() (any, error) { return c.GenerateAddress(ctx, "SOLANA") }},
		{exchange.PathWithdrawalInfo, func() (any, error) { return c.WithdrawalInfo(ctx) }},
		{exchange.PathWithdrawalQuote, func() (any, error) { return w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10") }},
		{exchange.PathWithdraw, func() (any, error) {
			q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
			if err != nil {
				return nil, err
			}
			req := w.signWithdraw(c, q, key, nil)
			return c.Withdraw(ctx, req)
		}},
		{exchange.PathWithdrawalStatus, func() (any, error) { return c.WithdrawalStatus(ctx, quoteID) }},
	}
	q, err := w.Quote(c, sandbox.DestCompleted, "ARBITRUM", "10")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Withdraw(ctx, w.signWithdraw(c, q, key, nil)); err != nil {
		t.Fatal(err)
	}
	quoteID = q.QuoteID
	w.Clock.Advance(time.Hour) // COMPLETED, with a payout hash to attack

	attacks := 0
	for _, ep := range endpoints {
		var sample []byte
		h.set(func(p string, body []byte) []byte {
			if p == ep.path {
				sample = append([]byte(nil), body...)
			}
			return body
		})
		if _, err := ep.call(); err != nil {
			t.Fatalf("%s without attack: %v", ep.path, err)
		}
		var v any
		if err := json.Unmarshal(sample, &v); err != nil {
			t.Fatalf("%s sample: %v", ep.path, err)
		}
		var leaves []string
		stringLeaves(v, "", &leaves)
		for _, leaf := range leaves {
			for name, p := range payloads {
				rewrite := onPath(ep.path, func(v any) any { return inject(v, leaf, p) })
				h.set(rewrite)
				got, err := ep.call()
				attacks++
				if err != nil {
					if s, bad := dirty(reflect.ValueOf(err.Error())); bad {
						t.Errorf("%s %s with %s: the error carries %q", ep.path, leaf, name, s)
					}
					continue
				}
				if s, bad := dirty(reflect.ValueOf(got)); bad {
					t.Errorf("%s %s with %s: the answer carries %q", ep.path, leaf, name, s)
				}
			}
		}
	}
	h.set(nil)
	if attacks < 200 {
		t.Fatalf("only %d attacks ran", attacks)
	}
	t.Logf("%d attacks, none got through", attacks)
}
