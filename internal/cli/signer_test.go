package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// keyRun is one run of a command with a chosen key source.
type keyRun struct {
	vars   map[string]string // the whole environment Getenv sees
	config string            // more lines of the environment "local"
	ctx    context.Context   // the command's, which ctrl+c ends; nil: none
}

// runKeys runs `svcwallet args...` on the rig's sandbox and fake clock,
// as runWithdraw does, with o's environment and config.
func (r *statusRig) runKeys(o keyRun, args ...string) withdrawRun {
	r.t.Helper()
	base, err := os.ReadFile(r.config)
	if err != nil {
		r.t.Fatal(err)
	}
	cfg := filepath.Join(r.t.TempDir(), "config.toml")
	if err := os.WriteFile(cfg, append(base, []byte(o.config)...), 0o600); err != nil {
		r.t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	env := CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut,
		Getenv: func(k string) string { return o.vars[k] }}
	a := newApp(env)
	if o.ctx != nil {
		a.ctx = o.ctx
	}
	a.withdraw = withdrawCmd{env: env, now: r.clock.Now, nonce: func() uint32 { return wcliNonce + r.nonces.Add(1) - 1 },
		jitter: func(int64) int64 { return 0 },
		sleep:  func(_ context.Context, d time.Duration) error { r.clock.Advance(d); return nil },
		retry: exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond,
			Sleep: func(context.Context, time.Duration) error { return nil }},
		terminal: func(CLIEnv) bool { return false },
	}
	a.status.now = r.clock.Now
	a.builder = builderCmd{env: env, now: r.clock.Now, nonce: signer.NewNonce}
	code := a.execute(append(args, "--config", cfg))
	return withdrawRun{code, out.String(), errOut.String()}
}

var (
	apiKeyOnly = map[string]string{apiKeyVar: sandbox.DemoAPIKey}
	noKeys     = map[string]string{}
)

func clefConfig(f *exchangetest.FakeClef) string { return fmt.Sprintf("signer = %q\n", "clef:"+f.URL) }

func commandConfig(mode string, words ...string) string {
	return fmt.Sprintf("signer = \"command\"\naccount = %q\nsign_command = %q\n", sandbox.DemoAddress, exchangetest.FakeSignCommand(mode, words...))
}

// primaryTypes lists what the fake clef was asked to sign.
func primaryTypes(f *exchangetest.FakeClef) string {
	var s []string
	for _, td := range f.Signed() {
		s = append(s, td.PrimaryType)
	}
	return strings.Join(s, " ")
}

// TestWithdrawByClef: the environment's signer clef logs in (no API key)
// and signs the Transfer, each wait said on stderr; the review names the
// key and says what a slow approval does to the quote.
func TestWithdrawByClef(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	f := exchangetest.NewFakeClef(t)
	res := r.runKeys(keyRun{vars: noKeys, config: clefConfig(f)}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--yes")...)...)
	res.want(t, 0, "Signer           "+sandbox.DemoAddress+"  from clef at "+f.URL, "Domain hash      0x", "Message hash     0x",
		"If the quote expires while you approve, svcwallet gets a fresh quote for exactly 25 USDT whose fee and loss stay within your fee cap of 2 USDT",
		"Withdrawal accepted (SUBMITTED)")
	if n := strings.Count(res.stderr, "svcwallet withdraw: waiting for approval in clef at "+f.URL+" (ctrl+c cancels)"); n != 2 {
		t.Errorf("%d waits said:\n%s", n, res.stderr)
	}
	if got := primaryTypes(f); got != "WalletLogin Transfer" {
		t.Errorf("clef signed %s", got)
	}
	r.wantBalance("9975")
}

// TestWithdrawSlowApproval: the quote expires while clef waits for the
// person; the signature, never sent, goes with a fresh quote for exactly
// the signed amount: one withdraw request, for the fresh quote.
func TestWithdrawSlowApproval(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	f := exchangetest.NewFakeClef(t)
	f.OnSign = func() bool { r.clock.Advance(2 * time.Minute); return true }
	res := r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f)}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--yes")...)...)
	res.want(t, 0, "expired while the signature was awaited; the fresh quote", "pays exactly 25 USDT", "Withdrawal accepted (SUBMITTED)")
	reviewed := quoteIDOf(t, res.stdout)
	sent := quoteIDOf(t, res.stdout[strings.Index(res.stdout, "Withdrawal accepted"):])
	if reviewed == sent {
		t.Fatalf("the expired quote %s was sent", sent)
	}
	if n := r.withdraws.Load(); n != 1 {
		t.Errorf("%d withdraw requests, want 1", n)
	}
	if got := primaryTypes(f); got != "Transfer" {
		t.Errorf("clef signed %s, want one Transfer", got)
	}
	if got := journalStates(t, sent); strings.Join(got, " ") != "accepted" {
		t.Errorf("the fresh quote journaled %v", got)
	}
	r.wantBalance("9975")
}

// TestWithdrawSlowApprovalRefused: a fresh quote that asks more than the
// fee cap, or without a cap more than the reviewed quote, or loses more
// than --accept-loss accepts, carries nothing; the review said so before
// the signature (RequoteNote, the share accepted with the order's choice).
func TestWithdrawSlowApprovalRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		extra  []string
		says   string
		review string
	}{
		{"above the cap", []string{"--max-fee", "2"}, "its fee 2.5 USDT is above your fee cap of 2 USDT", ""},
		{"above the reviewed quote", nil, "its fee 2.5 USDT is above the 1.5 USDT of the quote you reviewed", ""},
		{"above --accept-loss", []string{"--max-fee", "5", "--accept-loss", "7"}, "you would lose 2.5 USDT (pay 25, receive 22.5), 10% of the amount, above the 7% accepted",
			"whose fee and loss stay within your fee cap of 5 USDT, losing no more than the 7% of the amount you accepted, and sends it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withdrawState(t)
			r := newStatusRig(t)
			f := exchangetest.NewFakeClef(t)
			f.OnSign = func() bool {
				r.clock.Advance(2 * time.Minute)
				dearer := func(path string, body []byte) []byte {
					if path != exchange.PathWithdrawalQuote {
						return body
					}
					return bytes.Replace(bytes.Replace(body, []byte(`"fee":"1.5"`), []byte(`"fee":"2.5"`), 1), []byte(`"receive_amount":"23.5"`), []byte(`"receive_amount":"22.5"`), 1)
				}
				r.rewrite.Store(&dearer)
				return true
			}
			res := r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f)}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", append(tc.extra, "--yes")...)...)...)
			res.want(t, exitFailed, "cannot carry it: "+tc.says, "nothing was sent", tc.review)
			if n := r.withdraws.Load(); n != 0 {
				t.Errorf("%d withdraw requests", n)
			}
			r.wantBalance("10000")
		})
	}
}

// TestWithdrawQuoteExpiredAtSend: the service's clock seemed to leave the
// quote time, but the service refuses it as expired: the same signature,
// still unused, goes with a fresh quote.
func TestWithdrawQuoteExpiredAtSend(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	f := exchangetest.NewFakeClef(t)
	f.OnSign = func() bool {
		r.clock.Advance(70 * time.Second)
		// From now on /time says a minute earlier than the sandbox's clock.
		lagging := func(path string, body []byte) []byte {
			if path != exchange.PathTime {
				return body
			}
			var st exchange.ServerTime
			if json.Unmarshal(body, &st) != nil {
				return body
			}
			st.ServerTime -= time.Minute.Milliseconds()
			b, _ := json.Marshal(st)
			return b
		}
		r.rewrite.Store(&lagging)
		return true
	}
	res := r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f)}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--yes")...)...)
	res.want(t, 0, "the fresh quote", "Withdrawal accepted (SUBMITTED)")
	if n := r.withdraws.Load(); n != 2 {
		t.Errorf("%d withdraw requests, want the refused one and the fresh one", n)
	}
	reviewed := quoteIDOf(t, res.stdout)
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := j.Entries()
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, e.Kind+map[bool]string{true: "(reviewed)", false: ""}[e.QuoteID == reviewed])
	}
	if got := strings.Join(kinds, " "); got != "intent(reviewed) rejected(reviewed) intent accepted" {
		t.Errorf("journal: %s", got)
	}
	r.wantBalance("9975")
}

// TestWithdrawSignerRefusedOrCancelled: clef's refusal, and ctrl+c while
// clef waits, end the withdrawal with one line saying it was not signed,
// once ("not withdrawn: Not signed: …" said it twice), exit 1, nothing
// sent or journaled.
func TestWithdrawSignerRefusedOrCancelled(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	f := exchangetest.NewFakeClef(t)
	f.Deny = true
	res := r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f)}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)...)
	wantLine := "svcwallet withdraw: not signed: clef at " + f.URL + " refused to sign (request denied); nothing was sent\n"
	if res.code != exitFailed || !strings.HasSuffix(res.stderr, wantLine) {
		t.Fatalf("refused: exit %d\n%s", res.code, res.stderr)
	}

	f.Deny = false
	ctx, cancel := context.WithCancel(context.Background())
	f.OnSign = func() bool { cancel(); return false } // ctrl+c while clef shows its prompt
	res = r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f), ctx: ctx}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)...)
	if res.code != exitFailed || !strings.HasSuffix(res.stderr, "cancelled while waiting for approval in clef at "+f.URL+"; nothing was sent\n") || !strings.Contains(res.stderr, "svcwallet withdraw: not signed: ") {
		t.Fatalf("cancelled: exit %d\n%s", res.code, res.stderr)
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Errorf("%d withdraw requests", n)
	}
	if b, err := os.ReadFile(journal.DefaultPath()); err == nil && len(b) != 0 {
		t.Errorf("journaled:\n%s", b)
	}
	r.wantBalance("10000")
}

// TestSignCommandCLI: the environment's signing command (the test binary
// as a fake) logs in and signs a withdrawal and both builder messages; it
// gets the typed data in a private file, and the clean environment: it
// fails if a SVCWALLET_ variable of this process reaches it.
func TestSignCommandCLI(t *testing.T) {
	t.Setenv("SVCWALLET_PRIVATE_KEY", sandbox.DemoPrivateKey) // must not reach the command
	withdrawState(t)
	r := newStatusRig(t)
	cfg := commandConfig("sign", "{file}")
	res := r.runKeys(keyRun{vars: noKeys, config: cfg}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)...)
	res.want(t, 0, "waiting for the signing command cli.test", "Withdrawal accepted (SUBMITTED)", "from the signing command")
	r.wantBalance("9975")

	for _, extra := range [][]string{nil, keyArgs} {
		args := append([]string{"builder", "authorize", "--env", "local", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--yes"}, extra...)
		res := r.runKeys(keyRun{vars: noKeys, config: commandConfig("sign")}, args...)
		res.want(t, 0, "Builder authorized")
	}

	res = r.runKeys(keyRun{vars: apiKeyOnly, config: cfg}, "status", "q-unknown", "--signer", "command")
	res.want(t, exitNotFound, "waiting for the signing command")
}

// TestSignCommandFailuresCLI: a signing command that exits non-zero, prints
// garbage or signs with another key stops the command with one clean line
// on stderr after the wait, exit 1, nothing sent, under the signature's
// head as withdraw words it ("not signed: …", not "Not signed: …").
func TestSignCommandFailuresCLI(t *testing.T) {
	for _, tc := range []struct{ mode, says string }{
		{"refuse", "not signed: the signing command cli.test exited with status 1: Error: user rejected the request key 0xac0974be…"},
		{"garbage", `signing failed: the signing command cli.test printed no signature`},
		{"sign-other", "refused the signature: the signature is not the key's: over the digest svcwallet computed it recovers to " + sandbox.BuilderAddress + ", not to the expected " + sandbox.DemoAddress},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			e := newBcliEnv(t)
			cfg, err := os.ReadFile(e.config)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(e.config, append(cfg, commandConfig(tc.mode, "{file}")...), 0o600); err != nil {
				t.Fatal(err)
			}
			r := bcli(t, noKeys, "", false, authorizeArgs(e)...)
			lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
			if r.code != exitFailed || len(lines) != 2 || !strings.HasPrefix(lines[0], "svcwallet builder authorize: waiting for the signing command") ||
				!strings.HasPrefix(lines[1], "svcwallet builder authorize: "+tc.says) || !strings.HasSuffix(lines[1], "nothing was sent") {
				t.Fatalf("exit %d:\n%s", r.code, r.stderr)
			}
			if strings.ContainsAny(r.stderr, "\x1b\r\u202e") || strings.Contains(r.stderr, exchangetest.DemoKeyHex[:16]) {
				t.Fatalf("stderr not cleaned: %q", r.stderr)
			}
			if n := e.requests.Load(); n != 1 { // /time (SigningNow), no authorization
				t.Errorf("%d requests", n)
			}
		})
	}
}

// TestLoginBySigner: status, deposit and history --refresh log in by wallet
// with --signer; builder authorize signs both messages through clef.
func TestLoginBySigner(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	f := exchangetest.NewFakeClef(t)
	src := "clef:" + f.URL
	r.runKeys(keyRun{vars: apiKeyOnly}, "status", "q-unknown", "--signer", src).want(t, exitNotFound, "waiting for clef at "+f.URL+" to list its accounts")
	r.runKeys(keyRun{vars: apiKeyOnly}, "deposit", "--env", "local", "--signer", src, "--json").want(t, 0, `"chains"`)
	r.runKeys(keyRun{vars: noKeys, config: clefConfig(f)}, "history", "--refresh").want(t, 0)
	for _, extra := range [][]string{nil, keyArgs} {
		args := append([]string{"builder", "authorize", "--env", "local", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--signer", src, "--yes"}, extra...)
		r.runKeys(keyRun{vars: noKeys}, args...).want(t, 0, "Builder authorized")
	}
	if got := primaryTypes(f); got != "WalletLogin WalletLogin WalletLogin AuthorizeBuilder AddAccountSignerWithBuilder" {
		t.Fatalf("clef signed %s", got)
	}
	// With an API key and no --signer, status does not ask the signer.
	r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f)}, "status", "q-unknown").want(t, exitNotFound)
	if n := len(f.Signed()); n != 5 {
		t.Fatalf("status with an API key asked clef: %d signatures", n)
	}
}

// TestSignerUsage: a key choice that cannot be is a usage error (exit 2)
// before any request, repeating no key.
func TestSignerUsage(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	for _, tc := range []struct {
		args []string
		cfg  string
		says string
	}{
		{[]string{"status", "q-1", "--signer", "ledger"}, "", `--signer: unknown key source "ledger"`},
		{[]string{"status", "q-1", "--signer", "clef:http://10.0.0.1:8550"}, "", "use https for another host"},
		{[]string{"status", "q-1", "--signer", "command"}, "", "--signer command: no signing command"},
		{[]string{"status", "q-1", "--signer", "command"}, fmt.Sprintf("sign_command = %q\n", "sign {file}"), "give --account ADDRESS"},
		{[]string{"status", "q-1", "--signer", "env", "--account", "0x12"}, "", "--account: \"0x12\" is not an address"},
		// Escaped: cleaned, a zero-width space was not seen.
		{[]string{"status", "q-1", "--signer", "env", "--account", "0x12\u200b"}, "", "--account: \"0x12\\u200b\" is not an address"},
		{[]string{"status", "q-1", "--signer", "env", "--account", sandbox.BuilderAddress}, "", "not of --account " + sandbox.BuilderAddress},
		{append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--signer", "env", "--keystore-file", "k.json")...), "", "--signer and --keystore-file both choose the key"},
		{[]string{"deposit", "--env", "local", "--signer", "keystore"}, "", "--signer keystore: which key? give --account ADDRESS"},
		{[]string{"status", "q-1", "--signer", "keystore:" + sandbox.DemoAddress, "--account", sandbox.BuilderAddress}, "", "--signer keystore:" + sandbox.DemoAddress + " and --account " + sandbox.BuilderAddress + " name different keys"},
		{[]string{"history", "--signer", "env"}, "", "give --refresh too"},
		{[]string{"history", "--refresh", "--signer", "ledger"}, "", `history: --signer: unknown key source "ledger"`},
		{append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--keystore-file", "k\u202eey.json")...), "", "withdraw: --keystore-file: it holds U+202E at position 2, a control or invisible character: remove it\n"},
		{append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--signer", "k\u202eey.json")...), "", "withdraw: --signer: it holds U+202E at position 2, a control or invisible character: remove it\n"},
	} {
		res := r.runKeys(keyRun{vars: map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}, config: tc.cfg}, tc.args...)
		if res.code != exitUsage || !strings.Contains(res.stderr, tc.says) || strings.Contains(res.stderr, key[:16]) {
			t.Errorf("%q: exit %d, want 2 saying %q:\n%s", tc.args, res.code, tc.says, res.stderr)
		}
	}
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraws", n)
	}
}

// TestConfigSignerSaidAsTheConfigs: a key source the environment's signer
// chose that cannot be opened is named as that setting, of its environment
// in its config file; it was said as a --signer the command line had not
// been given (a flag's is TestSignerUsage's).
func TestConfigSignerSaidAsTheConfigs(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	vars := map[string]string{signer.KeystoreEnvVar: t.TempDir()}
	for _, tc := range []struct {
		setting string
		args    []string
		says    string
	}{
		{`signer = "command"`, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...), ": no signing command: set sign_command"},
		{`signer = "env"`, []string{"status", "q-1"}, ": $" + signer.KeyEnvVar + " is not set"},
		{`signer = "keystore"`, []string{"deposit", "--env", "local"}, ": which key? give --account ADDRESS"},
		{`signer = "keystore:` + sandbox.DemoAddress + `"`, []string{"status", "q-1", "--account", sandbox.BuilderAddress}, " and --account " + sandbox.BuilderAddress + " name different keys"},
	} {
		res := r.runKeys(keyRun{vars: vars, config: tc.setting + "\n"}, tc.args...)
		said := regexp.MustCompile(`^svcwallet ` + tc.args[0] + `: ` + regexp.QuoteMeta(tc.setting) + ` of environment local in the config \([^)]*config\.toml\)` + regexp.QuoteMeta(tc.says))
		if res.code != exitUsage || !said.MatchString(res.stderr) {
			t.Errorf("%s: exit %d, want 2 matching %s:\n%s", tc.setting, res.code, said, res.stderr)
		}
	}
}

// TestConfigAccountSaidAsTheConfigs: an account the environment's config
// named, whose key the chosen signer does not hold, is named as that
// setting; it was said as an --account the command line had not been given.
func TestConfigAccountSaidAsTheConfigs(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	vars := map[string]string{signer.KeystoreEnvVar: t.TempDir()}
	setting := `signer = "keystore:` + sandbox.DemoAddress + `"` + "\naccount = \"" + sandbox.BuilderAddress + "\"\n"
	res := r.runKeys(keyRun{vars: vars, config: setting}, "status", "q-1")
	said := regexp.MustCompile(` and account = "` + regexp.QuoteMeta(sandbox.BuilderAddress) + `" of environment local in the config \([^)]*config\.toml\) name different keys`)
	if res.code != exitUsage || !said.MatchString(res.stderr) || strings.Contains(res.stderr, "--account "+sandbox.BuilderAddress) {
		t.Errorf("exit %d, want 2 matching %s and no --account:\n%s", res.code, said, res.stderr)
	}
}

// TestWithdrawLostThenExpiredIsNotRequoted: a signature that waited on a
// person is sent; the first attempt pays but its answer is lost, and the
// retry is refused as expired. That refusal does not prove nothing was
// paid, so the signature is not carried on a fresh quote: the withdrawal
// is reported unanswered (exit 5, resume it), with one payment.
func TestWithdrawLostThenExpiredIsNotRequoted(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	f := exchangetest.NewFakeClef(t)
	var n atomic.Int32
	hook := func(w http.ResponseWriter, req *http.Request, ex http.Handler) bool {
		switch n.Add(1) {
		case 1: // executed, its answer lost
			ex.ServeHTTP(httptest.NewRecorder(), req)
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return true
		case 2: // a service that checks expiry before duplicates
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusGone)
			fmt.Fprintf(w, `{"code":%d,"message":"the quote has expired","status":410}`, exchange.CodeQuoteExpired)
			return true
		}
		return false
	}
	r.withdrawHook.Store(&hook)
	res := r.runKeys(keyRun{vars: apiKeyOnly, config: clefConfig(f)}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--yes")...)...)
	res.want(t, exitError, "withdraw resume")
	if k := r.withdraws.Load(); k != 2 {
		t.Errorf("%d withdraw requests, want the one that paid and its retry, no fresh quote", k)
	}
	if strings.Contains(res.stderr, "carries the same signature") {
		t.Errorf("the signature was carried on a fresh quote:\n%s\n%s", res.stdout, res.stderr)
	}
	r.wantBalance("9975")
}

// TestSignCommandSecretArgWarnedOnce: a signing command giving its
// program a password as an argument is warned of on stderr once a run,
// though it signs twice (the login, the Transfer), naming the option and
// never the value.
func TestSignCommandSecretArgWarnedOnce(t *testing.T) {
	withdrawState(t)
	r := newStatusRig(t)
	cfg := commandConfig("sign", "{file}", "--password", "pw-not-shown")
	res := r.runKeys(keyRun{vars: noKeys, config: cfg}, append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...)...)
	res.want(t, 0, "Withdrawal accepted (SUBMITTED)", "warning: the signing command, which runs", "gives --password on a command line", "--keystore FILE")
	if n := strings.Count(res.stderr, "warning: the signing command"); n != 1 || strings.Count(res.stderr, "waiting for the signing command") < 2 {
		t.Errorf("want one warning over two signatures, got %d:\n%s", n, res.stderr)
	}
	if strings.Contains(res.stdout+res.stderr, "pw-not-shown") {
		t.Errorf("the password is shown:\n%s", res.stderr)
	}
}
