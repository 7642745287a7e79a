package follow_test

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
)

// tokenShapes are the ways a support person's paste holds one id as a
// token: a CSV export's column ("0x…", one a line), quoted by a chat or a
// script's list, ending a sentence, in brackets.
var tokenShapes = []string{
	`"%s"`, `"%s",`, `'%s'`, "`%s`", "`%s`.", `%s.`, `%s,`, `%s;`, `%s:`, `%s)`,
	`(%s)`, `[%s]`, `{%s}`, `("%s"),`, `['%s'];`, `{"%s"}`, ` "%s" `,
}

// TestParseReadsAHashAsOneToken: a payout hash (0x and 64 hex digits, an
// EVM one or a TRON one written with 0x; a SOLANA signature) quoted, in
// brackets or followed by punctuation, one a line with CRLF, is looked up
// as that hash in the board's field and `status -` alike, and so is an
// explorer's link to one so written; a CSV of several columns is read by
// the board's field column by column, and `status -`, one id a line,
// refuses its lines as rows of two different ids, never as a private key. Each was
// refused whole for a key's shape: the hashes were let through between
// spaces, commas and semicolons only.
func TestParseReadsAHashAsOneToken(t *testing.T) {
	evm := "0x" + strings.Repeat("5f0c9e1b", 8)
	tron := "0X" + strings.Repeat("18DDC669", 8)
	sig := base58.Encode(bytes.Repeat([]byte{0xfe}, 64))
	link := "https://arbiscan.io/tx/0x" + strings.Repeat("2c1f9e0d", 8)
	for _, shape := range tokenShapes {
		lines := []string{fmt.Sprintf(shape, evm), fmt.Sprintf(shape, tron), fmt.Sprintf(shape, sig), fmt.Sprintf(shape, link), "q-1"}
		text := strings.Join(lines, "\r\n") + "\r\n"
		if got := safetext.KeySpans(follow.MaskHashes(text)); len(got) != 0 {
			t.Errorf("%s: a key's shape found at %v after the hashes were masked", shape, got)
		}
		for _, split := range []bool{true, false} {
			ids, lookups, bad := follow.ParseQuoteIDs(text, split)
			texts := make([]string, len(lookups))
			for i, l := range lookups {
				texts[i] = l.Text
				if l.Kind != follow.PayoutHash || l.Line != i+1 || l.Linked != (i == 3) {
					t.Errorf("%s split %v: lookup %+v", shape, split, l)
				}
			}
			if want := []string{evm, tron, sig, link[len("https://arbiscan.io/tx/"):]}; len(bad) != 0 || !slices.Equal(ids, []string{"q-1"}) || !slices.Equal(texts, want) {
				t.Errorf("%s split %v: ids %q, lookups %.20q, malformed %+v", shape, split, ids, texts, bad)
			}
		}
	}
	csv := `"` + evm + `","` + tron + "\"\r\n'" + sig + "';(" + link + ")\r\n"
	if ids, lookups, bad := follow.ParseQuoteIDs(csv, true); len(ids) != 0 || len(lookups) != 4 || len(bad) != 0 {
		t.Errorf("a CSV of two columns in the board's field: ids %q, lookups %+v, malformed %+v", ids, lookups, bad)
	}
	_, lookups, bad := follow.ParseQuoteIDs(csv, false)
	if len(lookups) != 0 || len(bad) != 2 || slices.ContainsFunc(bad, func(m follow.MalformedID) bool {
		var row *follow.RowError
		return !errors.As(m.Err, &row) || len(row.Columns) != 2 || errors.Is(m.Err, exchange.ErrKeyShape)
	}) {
		t.Errorf("a CSV of two columns given to status -: lookups %+v, malformed %+v; want each line a row of two ids, not a key", lookups, bad)
	}
}

// TestKeyRefusedAsATokenToo: a private key's shape in every way a payout
// hash is let through as one token (64 bare hex digits, a TRON payout's
// hash the service writes so; 0x and 62, 63, 65 or 66 digits) is still
// refused with its line, never looked up, with the next step its shape
// has bare (a TRON hash takes 0x, 0x and a digit more or less is a hash
// miscopied, never to take 0x); and so is a hash that is no
// token alone, glued to a word, a key's halves quoted as CSV fields, and
// a CSV line of a key and a hash.
func TestKeyRefusedAsATokenToo(t *testing.T) {
	hex := strings.Repeat("ab", 33)
	keys := []string{hex[:64], "0x" + hex[:62], "0x" + hex[:63], "0x" + hex[:65], "0x" + hex, "00" + hex[:64]}
	hash := "0x" + strings.Repeat("5f0c9e1b", 8)
	for _, shape := range tokenShapes {
		for _, key := range keys {
			text := "q-x\r\n" + fmt.Sprintf(shape, key) + "\r\n" + fmt.Sprintf(shape, hash) + "\r\nq-2"
			for _, split := range []bool{true, false} {
				ids, lookups, bad := follow.ParseQuoteIDs(text, split)
				if len(bad) != 1 || bad[0].Line != 2 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) || !slices.Equal(ids, []string{"q-x", "q-2"}) ||
					len(lookups) != 1 || lookups[0].Text != hash {
					t.Fatalf("%s of %d characters, split %v: ids %q, %d lookups, %d malformed", shape, len(key), split, ids, len(lookups), len(bad))
				}
				// The next step is the one for the shape inside the quotes.
				advice := follow.TronHashAdvice
				if strings.HasPrefix(key, "0x") {
					advice = "it looks like a payout hash"
				}
				if why := follow.CredentialRefusal(bad[0]); why == nil || !strings.Contains(why.Error(), advice) {
					t.Errorf("%s of %d characters, split %v: %v; want %q", shape, len(key), split, why, advice)
				}
			}
		}
	}
	for _, glued := range []string{"x(" + hash + ")", `"` + hash + `"x`, "q-1'" + hash + "'", hash + ".x", hash + "`q", "(" + hash + "/", `"` + hex[:32] + `","` + hex[32:64] + `"`, `"` + hex[:64] + `","` + hash + `"`} {
		for _, split := range []bool{true, false} {
			if _, lookups, bad := follow.ParseQuoteIDs(glued, split); len(lookups) != 0 || len(bad) != 1 || !errors.Is(bad[0].Err, exchange.ErrKeyShape) {
				t.Errorf("%.12q… split %v: %d lookups, %d malformed; want it refused as a key's shape", glued, split, len(lookups), len(bad))
			}
		}
	}
}

// hashLines is n distinct payout hashes one a line with CRLF, each as
// shape writes it ("%s", for bare).
func hashLines(n int, shape string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, shape+"\r\n", fmt.Sprintf("0x%x", sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)})))
	}
	return b.String()
}

// BenchmarkParseQuotedHashes10000 reads 10,000 payout hashes one a line,
// as a CSV export's column quotes them ("0x…",) and bare, as the board's
// field and `status -` are given them.
func BenchmarkParseQuotedHashes10000(b *testing.B) {
	for name, shape := range map[string]string{"quoted": `"%s",`, "bare": "%s"} {
		text := hashLines(10_000, shape)
		for _, split := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/split=%v", name, split), func(b *testing.B) {
				for b.Loop() {
					follow.ParseQuoteIDs(text, split)
				}
			})
		}
	}
}
