package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// hostilePayload holds every kind of sequence a hostile server could use on
// a terminal or a reader: OSC 52 (clipboard), OSC 2 (title), CSI, the C1 CSI,
// a bidi override and a zero-width space.
const hostilePayload = "\x1b]52;c;ZWNobyBvd25lZA==\x07\x1b]2;owned\x1b\\\x1b[2J\u009b31m\u202e\u200b"

// injectAll puts the payload in the middle of every string of a JSON answer.
func injectAll(body []byte) []byte {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return body
	}
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			return x[:len(x)/2] + hostilePayload + x[len(x)/2:]
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	out, _ := json.Marshal(walk(v))
	return out
}

// onlyPath applies f to one path's answers.
func onlyPath(path string, f func([]byte) []byte) *func(string, []byte) []byte {
	g := func(p string, body []byte) []byte {
		if p == path {
			return f(body)
		}
		return body
	}
	return &g
}

// requireInert fails when the raw bytes a command wrote could act on a
// terminal or hide text: ESC, C0 other than newline and tab, C1, bidi and
// zero-width characters.
func requireInert(t *testing.T, what string, raw []byte) {
	t.Helper()
	for i := 0; i < len(raw); {
		r, size := utf8.DecodeRune(raw[i:])
		bad := (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			(r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0xfeff ||
			(r == utf8.RuneError && size == 1)
		if bad {
			t.Fatalf("%s wrote %U at byte %d:\n%q", what, r, i, raw)
		}
		i += size
	}
}

// TestCLIHostileStatus: every string of the status answer carries the
// payload. Text and --json output are inert byte for byte (the ids carrying
// it are refused: exit 5, said in words), and an unknown state is an error
// that ends --watch.
func TestCLIHostileStatus(t *testing.T) {
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.clock.Advance(sandbox.DefaultSettle)

	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, injectAll))
	for _, args := range [][]string{{id}, {id, "--json"}, {id, "--watch", "--json"}} {
		res := r.run(nil, args...)
		requireInert(t, "status "+strings.Join(args[1:], " "), []byte(res.stdout+res.stderr))
		if res.code != exitError || len(res.sleeps) != 0 || !strings.Contains(res.stdout+res.stderr, "svcwallet cannot read") {
			t.Errorf("%v: exit %d, stderr %q", args, res.code, res.stderr)
		}
	}

	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, func(b []byte) []byte {
		return bytes.Replace(b, []byte(`"state":"COMPLETED"`), []byte(`"state":"PAID_OUT"`), 1)
	}))
	res := r.run(nil, id, "--watch")
	if res.code != exitError || !strings.Contains(res.stderr, "withdrawal state that is not one of") || len(res.sleeps) != 0 {
		t.Errorf("unknown state: exit %d after %d waits, stderr %q", res.code, len(res.sleeps), res.stderr)
	}
	r.rewrite.Store(nil)
	r.run(nil, id).want(t, exitCompleted, []string{"COMPLETED"}, nil)
}

// TestCLIHostileDeposit: every string of the deposit answer carries the
// payload; the table and --json are inert, and the addresses that fail
// their chain's check are marked refused.
func TestCLIHostileDeposit(t *testing.T) {
	r := newStatusRig(t)
	r.rewrite.Store(onlyPath(exchange.PathDepositAddresses, injectAll))
	for _, args := range [][]string{{"deposit", "--config", r.config}, {"deposit", "--json", "--config", r.config}} {
		res := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, args...)
		requireInert(t, strings.Join(args, " "), []byte(res.stdout+res.stderr))
		if res.code != 1 || !strings.Contains(res.stdout+res.stderr, "chain name") {
			t.Errorf("%v: exit %d: %s", args, res.code, res.stderr)
		}
	}
	// Only the addresses carry it: the list is usable, each address refused.
	r.rewrite.Store(onlyPath(exchange.PathDepositAddresses, func(b []byte) []byte {
		return bytes.ReplaceAll(b, []byte(`"deposit_address":"0x`), []byte(`"deposit_address":"\n\u001b]52;c;AA==\u0007echo owned\n0x`))
	}))
	res := depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, "deposit", "--config", r.config)
	requireInert(t, "deposit", []byte(res.stdout+res.stderr))
	if res.code != 0 || strings.Count(res.stdout, "REFUSED, do not deposit") != 5 {
		t.Errorf("exit %d:\n%s", res.code, res.stdout)
	}
	res = depositCmd(t, map[string]string{apiKeyVar: sandbox.DemoAPIKey}, "deposit", "--json", "--config", r.config)
	requireInert(t, "deposit --json", []byte(res.stdout))
	if !strings.Contains(res.stdout, `"address_problem"`) || strings.Contains(res.stdout, `"deposit_address": "0x`) {
		t.Errorf("--json:\n%s", res.stdout)
	}
}

// TestCLIHostileBuilderKey: an API key carrying the payload is refused, not
// printed; the authorization was taken all the same, so the command says
// so and where to revoke the key, with exit 5 (an outcome to check), not
// 1 as if refused.
func TestCLIHostileBuilderKey(t *testing.T) {
	r := newStatusRig(t)
	r.rewrite.Store(onlyPath(exchange.PathBuilderAuthorize, func([]byte) []byte {
		b, _ := json.Marshal(map[string]string{"api_key": "key-" + hostilePayload})
		return b
	}))
	for _, extra := range [][]string{nil, {"--json"}} {
		args := append([]string{"builder", "authorize", "--config", r.config, "--builder", sandbox.BuilderAddress,
			"--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--api-key-signer", sandbox.NoChainAddress,
			"--permissions", "Trade", "--label", "bot", "--yes"}, extra...)
		res := depositCmd(t, map[string]string{"SVCWALLET_PRIVATE_KEY": sandbox.DemoPrivateKey}, args...)
		requireInert(t, "builder authorize", []byte(res.stdout+res.stderr))
		said := res.stdout + res.stderr
		if res.code != exitError || !strings.Contains(said, "builder API key") || !strings.Contains(said, "is authorized") || !strings.Contains(said, "API key you never saw") {
			t.Errorf("%v: exit %d: %s %s", extra, res.code, res.stdout, res.stderr)
		}
	}
}

// TestJSONWriterEscapesControls: a value that still held a C1 or format
// character is written as \u escapes.
func TestJSONWriterEscapesControls(t *testing.T) {
	var b bytes.Buffer
	if err := writeJSONLine(&b, map[string]string{"v": "a\u009bb\u202ec\u200bd&e😀"}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != `{"v":"a\u009bb\u202ec\u200bd&e😀"}`+"\n" {
		t.Fatalf("got %q", got)
	}
	requireInert(t, "writeJSONLine", b.Bytes())
}

// TestCLIHostileStatusRoundTwo: a transfer id that runs a command, an
// amount of 900,000 digits, a state named twice, a COMPLETED without its
// payout hash and an error body with escape sequences: each is refused or
// cleaned, in words, with inert bytes, and never read as paid out.
func TestCLIHostileStatusRoundTwo(t *testing.T) {
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	r.clock.Advance(sandbox.DefaultSettle)
	for _, tc := range []struct {
		name string
		f    func([]byte) []byte
		says string
	}{
		{"transfer id running a command", exchangetest.TxIDRunsCommand, "transfer id that holds a character other than letters"},
		{"900,000-digit amount", exchangetest.HugeAmount, "receive amount that has more than 18 digits"},
		{"state named twice", exchangetest.StateTwice, `JSON object that names the field`},
		{"COMPLETED without a payout hash", exchangetest.NoPayoutHash, "COMPLETED record that carries no payout hash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, tc.f))
			for _, extra := range [][]string{nil, {"--json"}} {
				res := r.run(nil, append([]string{id}, extra...)...)
				out := res.stdout + res.stderr
				requireInert(t, tc.name, []byte(out))
				if res.code != exitError || !strings.Contains(out, tc.says) || strings.Contains(out, "PWNED") || len(out) > 2000 {
					t.Errorf("%v: exit %d, output %.300q", extra, res.code, out)
				}
			}
		})
	}
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, func([]byte) []byte {
		return []byte(`{"code":1003,"message":"try \u001b]0;owned\u0007\u001b[2Jagain\u009b31m\u202e\nlater","status":400}`)
	}))
	r.statusCode.Store(http.StatusBadRequest)
	res := r.run(nil, id)
	requireInert(t, "an error body", []byte(res.stdout+res.stderr))
	if res.code != exitError || !strings.Contains(res.stderr, "try again later") {
		t.Errorf("error body: exit %d, %q", res.code, res.stderr)
	}
}

// TestCLIStatusCreatedAfterAcceptance: a CREATED record of a withdrawal this
// account's journal saw accepted is pending and sends the user to support,
// never "expired unexecuted: nothing was paid"; a journal that cannot be
// read is said.
func TestCLIStatusCreatedAfterAcceptance(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	r := newStatusRig(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append(journal.Entry{Time: r.clock.Now(), Kind: journal.KindAccepted, Env: "local", AccountID: sandbox.DemoAccountID, QuoteID: id}); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(time.Hour)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, exchangetest.CreatedLongAgo))
	res := r.run(nil, id)
	if res.code != exitPending || !strings.Contains(res.stdout, "The service reports CREATED for a withdrawal it accepted on") || strings.Contains(res.stdout, "nothing was debited") {
		t.Fatalf("exit %d:\n%s%s", res.code, res.stdout, res.stderr)
	}
	// The journal replaced by a directory: said, and the record is read
	// without it.
	if err := os.Remove(journal.DefaultPath()); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(journal.DefaultPath(), 0o700); err != nil {
		t.Fatal(err)
	}
	if res := r.run(nil, id); !strings.Contains(res.stderr, "the journal cannot be read") {
		t.Fatalf("an unreadable journal not said: exit %d, %q", res.code, res.stderr)
	}
}

// TestCLIEchoesNoKeyPiece: arguments that are not what they should be are
// repeated with runs of more than 8 hex digits cut.
func TestCLIEchoesNoKeyPiece(t *testing.T) {
	r := newStatusRig(t)
	hex61 := strings.Repeat("ac0974be", 8)[:61]
	for _, args := range [][]string{{"q-" + hex61 + ";"}, {"--env", hex61, "q-1"}} {
		res := r.run(nil, args...)
		if res.code != exitUsage || strings.Contains(res.stdout+res.stderr, hex61[:9]) {
			t.Errorf("%v: exit %d, %q", args, res.code, res.stderr)
		}
	}
}
