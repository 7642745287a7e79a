package cli

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusFindsHashAndTransferID (issue 35 items 3 and 4): `status`
// takes a payout hash (0x and 64 hex digits, a key's shape) and a
// transfer id, found among the withdrawals this machine has seen (here
// the watch board's file), and follows the quote id found; neither is
// ever sent. One not seen exits 4 saying where hashes are found and how
// to get the quote id, never repeating the hash; the key guard still
// refuses a key in any other shape, and on other commands.
func TestStatusFindsHashAndTransferID(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	done, w := r.paidOut(t)
	if w.WithdrawTxHash == "" || w.TxID == "" {
		t.Fatalf("no payout hash or transfer id: %+v", w)
	}
	onBoard(t, w)
	r.takeAsks()
	// The hash is named shortened, as the watch board names it
	// (TestBoardSolanaShapeSaysBothFacts): a key's shape is never repeated.
	hash := w.WithdrawTxHash
	for id, said := range map[string]string{hash: "payout hash " + hash[:6] + "…" + hash[len(hash)-4:], strings.ToUpper(w.TxID): "transfer id "} {
		res := r.run(nil, id)
		res.want(t, exitCompleted, []string{"Quote id     " + done}, []string{said, "is withdrawal " + done})
		if n := len(r.takeAsks()); n != 1 {
			t.Errorf("%s: %d status requests, want the quote id's one", id, n)
		}
	}
	r.runStdin("# the customer's\n"+w.WithdrawTxHash+"\n", "-").want(t, exitCompleted, []string{done}, nil)
	r.takeAsks()

	unseen := "0x" + strings.Repeat("5f0c9e1b", 8)
	res := r.run(nil, unseen, done)
	res.want(t, exitNotFound, []string{done}, []string{"found only among the withdrawals this machine has seen", "ask for the quote id"})
	if strings.Contains(res.stderr, "5f0c9e1b") || strings.Contains(res.stdout, "5f0c9e1b") {
		t.Errorf("the unseen hash was repeated:\n%s%s", res.stdout, res.stderr)
	}
	r.run(nil, "tx-neverseen1").want(t, exitNotFound, nil, []string{"transfer id tx-neverseen1 was not found"})
	// The key guard: a key bare (no 0x) is refused before anything, saying
	// how to give a TRON payout hash, which has its shape.
	bare := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	r.run(nil, bare).want(t, exitUsage, nil, []string{"refusing a private key", "TRON payout hash", "0x in front"})
	r.runStdin(bare+"\n", "-").want(t, exitUsage, nil, []string{"line 1 is not a quote id", "TRON payout hash", "0x in front"})
	r.runStdin(done+", "+w.TxID+"\n", "-").want(t, exitUsage, nil, []string{"line 1 holds 2 different ids, in columns 1 and 2", "one a line"})
	if res := r.runStdin("q-\x01x\n", "-"); res.code != exitUsage || strings.Contains(res.stderr, "one id a line") {
		t.Errorf("one id with a wrong character: exit %d, told to give one id a line:\n%s", res.code, res.stderr)
	}
	if n := len(r.takeAsks()); n != 1 {
		t.Errorf("%d status requests after the unseen ones, want the quote id's one", n)
	}
	// With --json each error says which input it is about, under the
	// answers' key: the transfer id as given, the hash never whole.
	for _, c := range []struct {
		arg  string
		want errorJSON
	}{
		{"tx-neverseen1", errorJSON{TxID: "tx-neverseen1"}},
		{unseen, errorJSON{WithdrawTxHash: "0x5f0c…9e1b"}},
	} {
		res := r.run(nil, "--json", c.arg, done)
		var e errorJSON
		first, _, _ := strings.Cut(res.stdout, "\n")
		if err := json.Unmarshal([]byte(first), &e); err != nil || e.Error.Code != "not_found" || e.TxID != c.want.TxID ||
			e.WithdrawTxHash != c.want.WithdrawTxHash || e.QuoteID != "" || strings.Contains(res.stdout, "5f0c9e1b") {
			t.Errorf("status --json %.12s…: first line %s (%v); want the not_found error with tx_id %q, withdraw_tx_hash %q",
				c.arg, first, err, c.want.TxID, c.want.WithdrawTxHash)
		}
	}
	// A list saved by Notepad or a spreadsheet starts with a byte order mark.
	r.runStdin("\ufeff"+done+"\r\n", "-").want(t, exitCompleted, []string{done}, nil)
}

// TestStatusFindsInTheOrderGiven: a transfer id's withdrawal takes the place
// the transfer id was given at, among quote ids: in the table, in --json
// lines and in --watch's final table read from standard input.
func TestStatusFindsInTheOrderGiven(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	first := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	second := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.clock.Advance(sandbox.DefaultSettle)
	w := r.settledJSON(t, first)
	onBoard(t, w)
	order := func(out string) []string {
		var ids []string
		for _, l := range strings.Split(out, "\n") {
			for _, id := range []string{first, second} {
				if strings.HasPrefix(l, id) {
					ids = append(ids, id)
				}
			}
		}
		return ids
	}
	for _, c := range []struct {
		stdin string
		args  []string
		want  []string
	}{
		{"", []string{w.TxID, second}, []string{first, second}},
		{"", []string{second, w.TxID}, []string{second, first}},
		{"", []string{"--json", w.TxID, second}, []string{first, second}},
		{w.TxID + "\n" + second + "\n", []string{"-", "--watch"}, []string{first, second}},
		{second + "\n" + w.TxID + "\n", []string{"-", "--watch"}, []string{second, first}},
	} {
		var out string
		if c.stdin != "" {
			out = r.runStdin(c.stdin, c.args...).stdout
		} else {
			out = r.run(nil, c.args...).stdout
		}
		if strings.Contains(out, "\"quote_id\"") {
			var ids []string
			for _, l := range jsonLines(t, out) {
				ids = append(ids, l.QuoteID)
			}
			out = strings.Join(ids, "\n")
		}
		if got := order(out); !slices.Equal(got, c.want) {
			t.Errorf("status %v (stdin %q): ids in the order %v, want %v:\n%s", c.args, c.stdin, got, c.want, out)
		}
	}
}

// TestStatusTransferIDWithAnEscapeIsNotRepeated: a "transfer id" read from
// standard input (a file of ids) or an argument that holds an escape
// sequence is no transfer id: it is said malformed, cleaned, and never
// reaches the terminal raw (an OSC 52 would set the clipboard).
func TestStatusTransferIDWithAnEscapeIsNotRepeated(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	hostile := "tx-a\x1b]52;c;MHg5OTk5\x07b"
	for _, res := range []statusRun{r.runStdin(hostile+"\n", "-"), r.run(nil, hostile)} {
		if strings.ContainsAny(res.stdout+res.stderr, "\x1b\x07") || res.code == exitNotFound {
			t.Errorf("exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
		}
	}
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests for a malformed id", n)
	}
}

// TestStatusAsksSolanaShapeAsQuoteID: base58 of 64 bytes (a SOLANA payout
// hash's shape) not seen here is asked of the service as a quote id, which
// SPEC.md gives no shape: one not found is the service's NOT FOUND with
// the payout hash's fact beside it (none seen here has it), and no "is
// withdrawal" is said.
func TestStatusAsksSolanaShapeAsQuoteID(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	sig := make([]byte, 64)
	for i := range sig {
		sig[i] = byte(i*5 + 3)
	}
	id := base58.Encode(sig)
	res := r.run(nil, id)
	res.want(t, exitNotFound, nil, nil)
	if n := len(r.takeAsks()); n != 1 || !strings.Contains(res.stderr, "no withdrawal with quote id") || !strings.Contains(res.stderr, "SOLANA payout hash instead, no withdrawal this machine has seen") || strings.Contains(res.stderr, "is withdrawal") {
		t.Errorf("%d status requests, want the quote id's one; said:\n%s%s", n, res.stdout, res.stderr)
	}
}

// TestStatusNeverAsksSolanaKey: a SOLANA private key pasted by mistake
// has a payout hash's shape but is not asked as a quote id: no request,
// and it is not repeated.
func TestStatusNeverAsksSolanaKey(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := newStatusRig(t)
	key := base58.Encode(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{0x33}, ed25519.SeedSize)))
	res := r.run(nil, key)
	res.want(t, exitNotFound, nil, nil)
	if n := len(r.takeAsks()); n != 0 || strings.Contains(res.stdout+res.stderr, key) {
		t.Errorf("%d status requests for a SOLANA private key, or it was repeated:\n%s%s", n, res.stdout, res.stderr)
	}
}

// settledJSON is id's withdrawal as status --json prints it once it has
// completed (the caller moves the clock past the settle time).
func (r *statusRig) settledJSON(t *testing.T, id string) exchange.Withdrawal {
	t.Helper()
	res := r.run(nil, "--json", id)
	res.want(t, exitCompleted, nil, nil)
	return jsonLines(t, res.stdout)[0]
}

// paidOut withdraws 25 USDT to the sandbox's paying destination, lets it
// settle, and returns its quote id and what status --json says of it.
func (r *statusRig) paidOut(t *testing.T) (string, exchange.Withdrawal) {
	t.Helper()
	done := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.clock.Advance(sandbox.DefaultSettle)
	return done, r.settledJSON(t, done)
}

// onBoard writes w to the watch board's file, as the console keeps what
// it followed: where status finds a payout hash or a transfer id.
func onBoard(t *testing.T, w exchange.Withdrawal) {
	t.Helper()
	board := follow.WatchFile{Path: filepath.Join(filepath.Dir(journal.DefaultPath()), follow.WatchlistFile), Env: "local"}
	if err := board.Append([]follow.Kept{{QuoteID: w.QuoteID, Record: &w}}, nil); err != nil {
		t.Fatal(err)
	}
}
