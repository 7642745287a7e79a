package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// builderKey is the sandbox's builder account key: a key that is not the
// main account's signer.
const builderKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"

// signFile signs an eth_signTypedData_v4 file as a wallet would, with the
// stock wallet of exchangetest: a signer independent of svcwallet's.
func signFile(t *testing.T, path, keyHex string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := exchangetest.SignTypedDataJSON(keyHex, b)
	if err != nil {
		t.Fatalf("the stock wallet cannot sign the file: %v\n%s", err, b)
	}
	return hexutil.Encode(sig)
}

const demoSigner = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

// prepareOffline runs withdraw --signer offline --out into a new file and
// returns its path.
func (r *statusRig) prepareOffline(t *testing.T, extra ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "transfer.json")
	args := withdrawArgs(sandbox.DestCompleted, "25", append([]string{"--signer", "offline", "--account", demoSigner, "--out", out}, extra...)...)
	r.runWithdraw(withdrawRunOpts{}, args...).want(t, 0, "Prepared for offline signing", "svcwallet withdraw submit "+out+" --signature 0x", "cast wallet sign --data --from-file "+out+"\n")
	return out
}

// TestWithdrawOffline: prepare writes the typed data alone (0600, never
// over a file), signed by an independent signer it is submitted with a
// fresh quote and accepted, once; the journal keeps what the file does not.
func TestWithdrawOffline(t *testing.T) {
	r := newStatusRig(t)
	state := withdrawState(t)
	out := r.prepareOffline(t, "--max-fee", "2")
	if r.withdraws.Load() != 0 {
		t.Fatal("preparing sent a withdraw request")
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file %v, mode %v, want 0600", err, fi.Mode())
	}
	b, _ := os.ReadFile(out)
	var td map[string]json.RawMessage
	if err := json.Unmarshal(b, &td); err != nil || len(td) != 4 || td["primaryType"] == nil {
		t.Fatalf("the file is not the typed data alone: %s", b)
	}
	if strings.Contains(string(b), "max_fee") || strings.Contains(string(b), "q-") {
		t.Fatalf("the file holds what the journal keeps: %s", b)
	}
	jb, _ := os.ReadFile(filepath.Join(state, "journal.jsonl"))
	if !strings.Contains(string(jb), `"kind":"prepared"`) || !strings.Contains(string(jb), `"prepared":{"kind":"withdrawal"`) || !strings.Contains(string(jb), `"max_fee":"2"`) {
		t.Fatalf("journal lacks the prepared line: %s", jb)
	}
	// The Transfer expires 30 minutes after it was written.
	var msg struct {
		Message struct{ Expiration string } `json:"message"`
	}
	_ = json.Unmarshal(b, &msg)
	exp, err := strconv.ParseInt(msg.Message.Expiration, 10, 64)
	if want := r.clock.Now().Add(30 * time.Minute); err != nil || time.Unix(0, exp).After(want) || time.Unix(0, exp).Before(want.Add(-time.Second)) {
		t.Errorf("expiration %s, want 30 minutes after %s", msg.Message.Expiration, r.clock.Now())
	}
	// Never over a file.
	again := withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", out)
	r.runWithdraw(withdrawRunOpts{}, again...).want(t, exitUsage, "exists")
	if b2, _ := os.ReadFile(out); string(b2) != string(b) {
		t.Fatal("the file was overwritten")
	}

	// The quote it was made from expires meanwhile: a fresh one carries it.
	r.clock.Advance(3 * time.Minute)
	sig := signFile(t, out, sandbox.DemoPrivateKey)
	res := r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", sig)
	res.want(t, 0, "the fresh quote", "Withdrawal accepted")
	if !strings.HasPrefix(res.stdout, "Environment local · http://127.0.0.1:") {
		t.Errorf("submit does not start with where it sends:\n%s", res.stdout)
	}
	r.wantBalance("9975")
	if n := r.withdraws.Load(); n != 1 {
		t.Fatalf("%d withdraw requests, want 1", n)
	}
	// Submitting again is refused, naming the withdrawal; nothing is paid twice.
	id := quoteIDOf(t, res.stdout)
	r.runWithdraw(withdrawRunOpts{stdin: sig + "\n"}, "submit", out).want(t, exitFailed, "submitted already", id)
	r.wantBalance("9975")
	if n := r.withdraws.Load(); n != 1 {
		t.Fatalf("%d withdraw requests after a second submit, want 1", n)
	}
}

// TestWithdrawOfflineRefusals: a changed file, another signer, an expired
// Transfer and a fresh quote above the fee cap are refused, and nothing is
// sent for any of them.
func TestWithdrawOfflineRefusals(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)

	out := r.prepareOffline(t, "--max-fee", "2")
	b, _ := os.ReadFile(out)
	tampered := filepath.Join(t.TempDir(), "tampered.json")
	if err := os.WriteFile(tampered, []byte(strings.Replace(string(b), `"25000000"`, `"26000000"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if string(b) == mustRead(t, tampered) {
		t.Fatal("the test's tampering changed nothing")
	}
	r.runWithdraw(withdrawRunOpts{}, "submit", tampered, "--signature", signFile(t, tampered, sandbox.DemoPrivateKey)).
		want(t, exitFailed, "not a Transfer prepared on this machine")

	r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", signFile(t, out, builderKey)).
		want(t, exitFailed, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", demoSigner)
	r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", "0x1234").want(t, exitUsage, "130 hex digits")

	// The fee cap recorded at preparation holds for the fresh quote.
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalQuote, func(b []byte) []byte {
		return bytes.Replace(bytes.Replace(b, []byte(`"fee":"1.5"`), []byte(`"fee":"2.5"`), 1), []byte(`"receive_amount":"23.5"`), []byte(`"receive_amount":"22.5"`), 1)
	}))
	r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey)).
		want(t, exitFailed, "its fee 2.5 USDT is above your fee cap of 2 USDT", "nothing was sent")
	r.rewrite.Store(nil)

	r.clock.Advance(30*time.Minute + time.Second)
	r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey)).
		want(t, exitFailed, "expired", "prepare the withdrawal again")

	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests, want none", n)
	}
	r.wantBalance("10000")
}

// TestOfflineSignerNeeds: a --signer offline preparation, a withdrawal's
// or a builder authorization's, is refused before anything is asked
// without a readable account, a new --out file, without --dry-run, or on
// the embedded sandbox, which ends with the command.
func TestOfflineSignerNeeds(t *testing.T) {
	existing := filepath.Join(t.TempDir(), "there.json")
	if err := os.WriteFile(existing, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "new.json")
	local := config.SandboxEnvironment("http://127.0.0.1:8700", sandbox.DefaultChainID)
	local.Name = "local"
	for _, tc := range []struct {
		name    string
		account string
		out     string
		dryRun  bool
		env     config.Environment
		exit    int
		says    string
	}{
		{"an account that is no address", "0x12", fresh, false, local, exitUsage, "--account: \"0x12\" is not an address"},
		{"no --out", demoSigner, "", false, local, exitUsage, "give --out FILE"},
		{"--dry-run", demoSigner, fresh, true, local, exitUsage, "drop --dry-run"},
		{"--out an existing file", demoSigner, existing, false, local, exitUsage, "give --out a new file"},
		{"no account", "", fresh, false, local, exitUsage, "give --account ADDRESS, whose"},
		{"the embedded sandbox", demoSigner, fresh, false, config.SandboxEnvironment("", sandbox.DefaultChainID), exitFailed, "the prepared thing with it"},
	} {
		_, err := offlineSigner(signerFlags{account: tc.account}, tc.out, tc.dryRun, tc.env, "whose", "thing")
		var ce *cmdError
		if !errors.As(err, &ce) || ce.exit != tc.exit || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want exit %d saying %q", tc.name, err, tc.exit, tc.says)
		}
	}
	if a, err := offlineSigner(signerFlags{account: demoSigner}, fresh, false, local, "whose", "thing"); err != nil || a.Hex() != demoSigner {
		t.Errorf("all given: %v %v", a.Hex(), err)
	}
	// withdraw prepares through it too (builder authorize: TestBuilderOffline),
	// and takes --out only with --signer offline (offlinePrepares).
	r := newStatusRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner)...).
		want(t, exitUsage, "give --out FILE")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--out", fresh, "--yes")...).
		want(t, exitUsage, "give --signer offline too")
	// A key source that cannot be is said first, before what it would ask.
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "wand")...).
		want(t, exitUsage, `--signer: unknown key source "wand"`)
	newBoRig(t).run("", "authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--signer", "wand").
		want(t, exitUsage, `--signer: unknown key source "wand"`)
	// Each command hands its own environment to the check: on the embedded
	// sandbox (no config) both refuse, withdraw before --wait's refusal,
	// and write no file.
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // what a broken check would journal stays here
	offline := []string{"--signer", "offline", "--account", demoSigner, "--out", fresh}
	for _, args := range [][]string{
		append([]string{"withdraw", "--wait"}, withdrawArgs(sandbox.DestCompleted, "25", offline...)...),
		append([]string{"builder", "authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05"}, offline...),
	} {
		if res := depositCmd(t, nil, args...); res.code != exitFailed || !strings.Contains(res.stderr, "the embedded sandbox ends with this command") {
			t.Errorf("%s on the embedded sandbox: exit %d, stderr %q, want exit %d, refused", args[0], res.code, res.stderr, exitFailed)
		}
		if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s on the embedded sandbox wrote %s (%v)", args[0], fresh, err)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestWithdrawOfflineFromConfig: an environment whose signer is offline
// prepares without a terminal and without --yes, as --signer offline does:
// preparing signs and sends nothing, so there is nothing to confirm.
func TestWithdrawOfflineFromConfig(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	out := filepath.Join(t.TempDir(), "transfer.json")
	res := r.runKeys(keyRun{vars: apiKeyOnly, config: "signer = \"offline\"\naccount = \"" + demoSigner + "\"\n"},
		append([]string{"withdraw"}, withdrawArgs(sandbox.DestCompleted, "25", "--out", out)...)...)
	res.want(t, 0, "Prepared for offline signing")
	if r.withdraws.Load() != 0 {
		t.Fatal("preparing sent a withdraw request")
	}
}

// TestWithdrawSubmitSaysWhereItPays: the file signs only the amount and
// the bridge; where the fresh quote pays out is the journal's. Submit
// says it, the destination, chain and amount as journaled, before the
// send's outcome (on stderr with --json).
func TestWithdrawSubmitSaysWhereItPays(t *testing.T) {
	r := newStatusRig(t)
	journalPath := filepath.Join(withdrawState(t), "journal.jsonl")
	elsewhere := sandbox.DestSolana
	for _, asJSON := range []bool{false, true} {
		out := r.prepareOffline(t)
		b := mustRead(t, journalPath)
		// Not signed, so not tied to the file: the journal alone says where.
		edited := strings.Replace(b, `"to_address":"`+sandbox.DestCompleted+`","chain":"ARBITRUM"`, `"to_address":"`+elsewhere+`","chain":"SOLANA"`, 1)
		if edited == b {
			t.Fatalf("no destination to change in the journal:\n%s", b)
		}
		if err := os.WriteFile(journalPath, []byte(edited), 0o600); err != nil {
			t.Fatal(err)
		}
		// An edited journal is not what svcwallet wrote: nothing is sent on
		// it until it is accepted as it now is (doctor --accept-journal).
		args := []string{"submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey)}
		r.runWithdraw(withdrawRunOpts{}, args...).want(t, exitFailed, "is not what svcwallet wrote")
		j, err := journal.Open(journalPath)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.AcceptAsItIs(); err != nil {
			t.Fatal(err)
		}
		if !asJSON {
			res := r.runWithdraw(withdrawRunOpts{}, args...)
			res.want(t, 0, "Withdrawal accepted")
			review := "Prepared withdrawal, as this machine's journal keeps it (the file signs only the amount and the bridge)\n" +
				"  Pays out to      " + elsewhere + "\n" +
				"  Route            USDT → USDT on SOLANA (solana)\n" +
				"  You pay          25 USDT  exactly the signed numTokens\n" +
				"  Fee cap          1.5 USDT  for the fresh quote's fee and loss: the quote reviewed when it was prepared (no fee cap was given)\n"
			if i := strings.Index(res.stdout, review); i < 0 || i > strings.Index(res.stdout, "Withdrawal accepted") {
				t.Errorf("submit does not say where it pays before it sends:\n%s", res.stdout)
			}
			continue
		}
		res := r.runWithdraw(withdrawRunOpts{}, append(args, "--json")...)
		res.want(t, 0)
		said := strings.Index(res.stderr, "submitting the prepared withdrawal of 25 USDT to "+elsewhere+" on SOLANA (paid out in USDT)")
		if said < 0 || said > strings.Index(res.stderr, "the fresh quote") || strings.Contains(res.stdout, "Pays out to") {
			t.Errorf("--json: where it pays is not on stderr alone, before the fresh quote:\n%s\n%s", res.stdout, res.stderr)
		}
	}
}

// TestDryRunOpensANamedKey: a dry run signs nothing, yet a key named for
// it (offlinePrepares says whether one was) is opened: builder's refuses
// a --account it is not of, where --account alone would do; withdraw's
// review names the key that would sign.
func TestDryRunOpensANamedKey(t *testing.T) {
	lightScrypt(t)
	_, path, err := signer.ImportRawKey(t.TempDir(), sandbox.DemoPrivateKey, cliPass)
	if err != nil {
		t.Fatal(err)
	}
	named := []string{"--dry-run", "--account", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "--keystore-file", path}
	e := newBcliEnv(t)
	if r := bcli(t, nil, "", true, authorizeArgs(e, named...)...); r.code != exitUsage || !strings.Contains(r.stderr, "not of --account") {
		t.Errorf("builder authorize %q: exit %d: %s", named, r.code, r.stderr)
	}
	r := newStatusRig(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", named...)...).want(t, exitUsage, "not of --account")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--dry-run", "--json", "--keystore-file", path)...).
		want(t, 0, `"signer":{"address":"`+demoSigner+`"`)
}

// TestPreparedFileLargerThanAnyRefused: submit refuses a file of more than
// any prepared intent's typed data (a sparse one costs no disk) as a usage
// error, before it is read whole.
func TestPreparedFileLargerThanAnyRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.json")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 8<<20); err != nil {
		t.Fatal(err)
	}
	_, err := readPrepared(path)
	if err == nil || err.Error() != path+" is larger than a prepared Transfer's typed data" {
		t.Fatalf("a file of 8 MiB: %v", err)
	}
}

// TestSubmitSaysWhereBeforeTheSignature: withdraw submit, reading its
// signature from standard input, prints where the journal says the
// withdrawal pays out before it reads it, so a person sees it before
// pasting: with nothing to read, it is printed all the same. It printed
// only after the signature was read.
func TestSubmitSaysWhereBeforeTheSignature(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	out := r.prepareOffline(t, "--max-fee", "2")
	res := r.runWithdraw(withdrawRunOpts{terminal: true}, "submit", out)
	res.want(t, exitUsage, "Pays out to", sandbox.DestCompleted, "ARBITRUM", "You pay", "Fee cap", "Signature (0x and 130 hex digits): ", "give the signature with --signature 0x…, or on standard input")
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("%d withdraw requests", n)
	}
}

// TestSubmitTakesNoSignatureTypedAhead: a signature pasted before withdraw
// submit printed where the withdrawal pays out (with the command, or while
// it read the journal) is dropped and said, as a question that pays takes
// no answer typed before it: it was read at once and sent, the
// destination, chain and fee cap it does not sign printed past reading.
func TestSubmitTakesNoSignatureTypedAhead(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	out := r.prepareOffline(t)
	sig := signFile(t, out, sandbox.DemoPrivateKey)
	res := r.runWithdraw(withdrawRunOpts{terminal: true, typedAhead: true, stdin: sig + "\n"}, "submit", out)
	res.want(t, exitUsage, "Pays out to", "Discarded what was typed before this question.\nSignature (0x and 130 hex digits): ")
	if n := r.withdraws.Load(); n != 0 {
		t.Fatalf("a signature typed ahead was sent (%d withdraw requests)", n)
	}
	r.runWithdraw(withdrawRunOpts{terminal: true, stdin: sig + "\n"}, "submit", out).want(t, exitCompleted, "Withdrawal accepted")
}

// TestSigningCommandsSayAnUnknownEnvironment: withdraw and builder
// authorize, which learn the environment with whether they prepare for
// offline signing (app.offlinePrepares), stop at an --env no config names,
// saying so, before a key is looked for.
func TestSigningCommandsSayAnUnknownEnvironment(t *testing.T) {
	for _, args := range [][]string{
		{"withdraw", "--chain", "ARBITRUM", "--to", sandbox.DestCompleted, "--amount", "25", "--yes"},
		{"builder", "authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--yes"},
	} {
		r := depositCmd(t, map[string]string{signer.KeyEnvVar: sandbox.DemoPrivateKey}, append(args, "--env", "nosuch")...)
		if r.code != exitUsage || !strings.Contains(r.stderr, `no environment "nosuch" (from --env)`) {
			t.Errorf("%s --env nosuch: exit %d\n%s", args[0], r.code, r.stderr)
		}
	}
}
