package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// TestSubmitAfterARestoreExitsUnknownSayingMostLikelyPaid: the state folder
// restored from a backup taken between prepare and submit (every file of
// it) forgets the submission. Submitted again, the service refuses the
// Transfer's used nonce: the command says it was most likely paid already,
// where to look, never to sign again (which pays twice), and exits 5 (as
// an answer that does not say it paid), never 1, "nothing paid"; --json
// says so too.
func TestSubmitAfterARestoreExitsUnknownSayingMostLikelyPaid(t *testing.T) {
	r := newStatusRig(t)
	state := withdrawState(t)
	out := r.prepareOffline(t)
	backup := map[string][]byte{}
	entries, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			if backup[e.Name()], err = os.ReadFile(filepath.Join(state, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	sig := signFile(t, out, sandbox.DemoPrivateKey)
	r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", sig).want(t, 0, "Withdrawal accepted")
	restore := func() {
		now, _ := os.ReadDir(state)
		for _, e := range now {
			if _, ok := backup[e.Name()]; !ok && e.Type().IsRegular() {
				_ = os.Remove(filepath.Join(state, e.Name()))
			}
		}
		for name, b := range backup {
			if err := os.WriteFile(filepath.Join(state, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	restore()
	res := r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", sig)
	res.want(t, exitError, "most likely paid already", "most likely sent and paid before", "never sign it again",
		"svcwallet history --env local", "svcwallet status QUOTE_ID --watch --env local")
	if strings.Contains(res.stderr, "sign again") || strings.Contains(res.stderr, "not withdrawn") {
		t.Errorf("said as a refusal to sign again:\n%s", res.stderr)
	}
	r.wantBalance("9975")

	restore()
	res = r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", sig, "--json")
	var doc struct {
		Error struct {
			Code, Message string
			Exit          int
		}
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &doc); err != nil || res.code != exitError || doc.Error.Exit != exitError || !strings.Contains(doc.Error.Message, "most likely paid already") {
		t.Errorf("--json: exit %d, %+v (%v)\n%s", res.code, doc, err, res.stdout)
	}
	r.wantBalance("9975")
}

// TestSubmitRefusedByAnIdenticalMadeSincePrepared: the identical withdrawal
// made while the file was away being signed (by withdraw, or a second file
// of it submitted first) refuses the submit, exit 1, nothing paid, saying
// which one was made; no warning before it says this one pays again.
func TestSubmitRefusedByAnIdenticalMadeSincePrepared(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	out := r.prepareOffline(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, 0, "Withdrawal accepted")
	r.clock.Advance(time.Minute)
	res := r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey))
	res.want(t, exitFailed, "not withdrawn: An identical withdrawal of 25 USDT", "was made by another run while this one was under way: this one was not sent")
	if strings.Contains(res.stderr, "this one pays again") {
		t.Errorf("refused, yet warned that it pays again:\n%s", res.stderr)
	}
	r.wantBalance("9975")

	first := r.prepareOffline(t)
	second := filepath.Join(t.TempDir(), "again.json")
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", second)...).want(t, 0, "Prepared for offline signing")
	r.runWithdraw(withdrawRunOpts{}, "submit", second, "--signature", signFile(t, second, sandbox.DemoPrivateKey)).want(t, 0, "Withdrawal accepted")
	r.runWithdraw(withdrawRunOpts{}, "submit", first, "--signature", signFile(t, first, sandbox.DemoPrivateKey)).
		want(t, exitFailed, "was made by another run while this one was under way")
	r.wantBalance("9950")
}

// TestSubmitWarnsOfAnIdenticalMadeBeforeItWasPrepared: an identical
// withdrawal made before the Transfer was prepared does not stop its
// submit, which warns of it in withdraw's words, as the prepare did.
func TestSubmitWarnsOfAnIdenticalMadeBeforeItWasPrepared(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes")...).want(t, 0, "Withdrawal accepted")
	out := r.prepareOffline(t)
	r.clock.Advance(time.Minute)
	res := r.runWithdraw(withdrawRunOpts{}, "submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey))
	res.want(t, 0, "Withdrawal accepted", "warning: an identical withdrawal of 25 USDT", "was made 1m0s ago and is SUBMITTED, not finished: this one pays again")
	r.wantBalance("9950")
}

// TestNonceUsedUnrecordedSaysSo: a used nonce's refusal the journal could
// not record leaves the withdrawal unanswered there, refusing an identical
// one until it is resumed: the most-likely-paid words say so and the
// resume, as every other refusal left unrecorded does; they dropped it.
func TestNonceUsedUnrecordedSaysSo(t *testing.T) {
	refused := &exchange.APIError{Status: 400, Code: exchange.CodeDuplicateSignature}
	sent := withdrawal.Sent{Err: refused, Signed: true, Unrecorded: &withdrawal.UnrecordedError{QuoteID: "q-1", Journal: errors.New("no space left on device")}}
	sent.Order.Quote.QuoteID = "q-1"
	err := withdrawCmd{app: &app{}}.finish(context.Background(), nil, config.Environment{}, withdrawTarget{}, nil, withdrawal.Order{}, sent, withdrawFlags{})
	ce, _ := errors.AsType[*cmdError](err)
	said := fmt.Sprint(err)
	if ce == nil || ce.exit != exitError || !strings.Contains(said, "could not record the refusal (no space left on device)") || !strings.Contains(said, "withdraw resume q-1") {
		t.Errorf("%#v: %s", ce, said)
	}
}
