package journal

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// fastSeeds are lines of every shape svcwallet writes, and edits of them
// each reader must agree on.
func fastSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	seeds = append(seeds, genLines(tb, genQuoteID(3), 3, true)...)
	for _, e := range []Entry{
		{Time: genT0, Kind: KindRejected, Env: "production", AccountID: "acct-1", QuoteID: "q-9", Error: `quote expired <"now"> & gone`, QuoteExpired: true},
		{Time: genT0, Kind: KindRejected, Env: "production", QuoteID: "q-9", Error: "refusé: ⚠"},
		{Time: genT0, Kind: KindPrepared, Env: "production", QuoteID: "q-9", Prepared: &Prepared{Kind: PreparedWithdrawal}},
		func() Entry {
			e := genIntent("production", "acct-1", "q-8", 8, genT0)
			e.Service = &config.Service{Host: "api.example:8443", ChainID: 327}
			return e
		}(),
	} {
		b, err := json.Marshal(e)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	intent := string(seeds[0])
	for _, edit := range [][2]string{
		{`"v":27`, `"v":-27`}, {`"v":27`, `"v":027`}, {`"v":27`, `"v":27.0`}, {`"nonce":3,`, `"nonce":4294967296,`},
		{`"kind":"intent"`, `"Kind":"intent"`}, {`"kind":"intent"`, `"kind":"intent","kind":"state"`},
		{`"env":"production"`, `"env":"prod\u0075ction"`}, {`"env":"production"`, `"env" : "production"`},
		{`"pay_amount":"13"`, `"pay_amount":13`}, {`"pay_amount":"13"`, `"pay_amount":"-13"`},
		{`"chain_id":327}}`, `"chain_id":"327"}}`}, {`"token_currency":3`, `"token_currency":300`},
		{`"time":"2026-03-02T10:03:00Z"`, `"time":"2026-03-02T10:03:00+01:00"`}, {`"time":"2026-03-02T10:03:00Z"`, `"time":"yesterday"`},
		{`"from_account":"0x`, `"from_account":"0X`}, {`}}`, `}}  `}, {`"state"`, `"extra":null,"state"`},
		{`"chain":"BASE"`, "\"chain\":\"BA\xffSE\""}, {`"env":"production"`, "\"env\":\"prod\tuction\""},
	} {
		seeds = append(seeds, []byte(strings.Replace(intent, edit[0], edit[1], 1)))
	}
	return seeds
}

// TestDecodeFastReadsWhatAppendWrites: the withdrawal lines svcwallet
// writes take the fast reader, and it reads them as encoding/json does;
// a line with an escape, and a prepared line, are left to encoding/json.
func TestDecodeFastReadsWhatAppendWrites(t *testing.T) {
	seeds := fastSeeds(t)
	for i, line := range seeds[:9] {
		var fast, full Entry
		took := decodeFast(line, &fast)
		if want := i != 5 && i != 7; took != want {
			t.Errorf("read fast: %v, want %v: %s", took, want, line)
			continue
		}
		if err := exchange.Decode(line, &full); took && (err != nil || !reflect.DeepEqual(fast, full)) {
			t.Errorf("read fast as %+v, by encoding/json as %+v (%v)", fast, full, err)
		}
	}
}

// FuzzDecodeFast: whatever the fast reader reads, encoding/json reads
// too, into the same entry.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast, full Entry
		if !decodeFast(line, &fast) {
			return
		}
		if err := exchange.Decode(line, &full); err != nil {
			t.Fatalf("read fast, refused by encoding/json (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fast, full) {
			t.Fatalf("read fast as %+v, by encoding/json as %+v: %q", fast, full, line)
		}
	})
}
