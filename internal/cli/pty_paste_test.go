//go:build e2e && unix

package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// Issue 33 item 1: a paste, or keys typed ahead, never answer a question
// that signs, on any face: plain mode, withdraw asking what it lacks, and
// builder authorize. Each runs the built binary on a pseudo-terminal
// against a sandbox in this process, which counts what it is sent.

// pasteRig is the built binary and a sandbox "rig" its config points at.
type pasteRig struct {
	bin, dir  string
	ex        *sandbox.Exchange
	withdraws atomic.Int32
	grants    atomic.Int32 // builder authorizations
}

func newPasteRig(t *testing.T) *pasteRig {
	t.Helper()
	r := &pasteRig{dir: t.TempDir(), ex: sandbox.New(sandbox.Options{})}
	r.bin = buildStamped(t, r.dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case exchange.PathWithdraw:
			r.withdraws.Add(1)
		case exchange.PathBuilderAuthorize:
			r.grants.Add(1)
		}
		r.ex.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	cfgDir := filepath.Join(r.dir, "home", ".config", "svcwallet")
	if err := os.MkdirAll(cfgDir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf("default_env = \"rig\"\n[env.rig]\nauth_url = %[1]q\nbase_url = %[1]q\nmarket_data_url = %[1]q\nchain_id = %[2]d\n", srv.URL, sandbox.DefaultChainID)
	if err := os.WriteFile(filepath.Join(cfgDir, "config.toml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

// start runs the binary with args on a pseudo-terminal, the demo key in
// the environment.
func (r *pasteRig) start(t *testing.T, o ptyStart, args ...string) *ptyTyping {
	env := silentEnv(r.dir, "TERM=dumb", signer.KeyEnvVar+"="+sandbox.DemoPrivateKey)
	return &ptyTyping{silentTerminal: o.start(t, r.bin, env, args...), t: t}
}

// paste types text in one write, as a terminal delivers a paste.
func (p *ptyTyping) paste(text string) {
	p.t.Helper()
	if _, err := p.ptmx.Write([]byte(text)); err != nil {
		p.t.Fatal(err)
	}
}

// nothingSent fails unless the sandbox saw no withdrawal and no builder
// authorization, and the demo account's balance is whole.
func (r *pasteRig) nothingSent(t *testing.T, out string) {
	t.Helper()
	if w, g, b := r.withdraws.Load(), r.grants.Load(), r.ex.Balance(sandbox.DemoAccountID); w != 0 || g != 0 || b.String() != "10000" {
		t.Errorf("%d withdrawals and %d authorizations sent, balance %s; transcript:\n%s", w, g, b, out)
	}
}

// TestPasteDoesNotSignOnATerminal: each face on one built binary and one
// sandbox, which is sent no withdrawal and no authorization.
func TestPasteDoesNotSignOnATerminal(t *testing.T) {
	r := newPasteRig(t)
	t.Run("plain", r.plainPaste)
	t.Run("withdraw", r.withdrawPaste)
	t.Run("builder", r.builderTypeAhead)
	t.Run("plain builder API key", r.plainAPIKeyTypeAhead)
	t.Run("stderr not a terminal", r.stderrNotATerminal)
}

// plainPaste: in plain mode, address, amount, fee cap and y pasted at the
// destination question fill the form, and the y is discarded before "Sign
// and withdraw?": the n typed once it shows is the answer, and nothing is
// signed or sent.
func (r *pasteRig) plainPaste(t *testing.T) {
	s := r.start(t, ptyStart{}, "--plain")
	const short = 15 * time.Second
	s.answer("Which environment?", "rig", short)
	s.answer("How do you log in?", "API key", short)
	s.answer("API key (not shown as you type): ", sandbox.DemoAPIKey, short)
	s.withdrawToArbitrum(short)
	s.waitFor("Destination address on", short)
	s.paste(sandbox.DestCompleted + "\n25\nnone\ny\n")
	s.answerReviewed("[y/n] ", "n", short)
	s.answer("What next?", "Back home", short)
	s.answer("Home: what next?", "Quit", short)
	if code := s.wait(short); code != 0 {
		t.Errorf("exit %d", code)
	}
	out := s.output()
	if !strings.Contains(out, "Not signed: nothing was signed or sent.") || strings.Contains(out, "Withdrawal accepted") {
		t.Errorf("transcript:\n%s", out)
	}
	r.nothingSent(t, out)
}

// withdrawPaste: withdraw asking for what it lacks takes a pasted address
// and amount, and discards the y pasted with them before the question that
// signs.
func (r *pasteRig) withdrawPaste(t *testing.T) {
	s := r.start(t, ptyStart{}, "withdraw", "--chain", "arbitrum")
	const short = 15 * time.Second
	s.waitFor("Destination address on ARBITRUM", short)
	s.paste(sandbox.DestCompleted + "\n26\ny\n")
	s.answerReviewed(" on ARBITRUM, in environment rig? [y/N] ", "n", short)
	if code := s.wait(short); code != exitFailed || !strings.Contains(s.output(), "not confirmed: nothing was signed or sent") {
		t.Errorf("exit %d; transcript:\n%s", code, s.output())
	}
	r.nothingSent(t, s.output())
}

// builderTypeAhead: a y typed before builder authorize has shown its
// review (here, before it started) does not answer its question.
func (r *pasteRig) builderTypeAhead(t *testing.T) {
	s := r.start(t, ptyStart{typedAhead: "y\n"}, "builder", "authorize", "--builder", sandbox.BuilderAddress,
		"--max-futures-fee", "0.1", "--max-spot-fee", "0.05")
	const short = 15 * time.Second
	s.answerReviewed(" on spot, in environment rig? [y/N] ", "n", short)
	if code := s.wait(short); code != exitFailed || !strings.Contains(s.output(), "not confirmed: nothing was signed or sent") {
		t.Errorf("exit %d; transcript:\n%s", code, s.output())
	}
	r.nothingSent(t, s.output())
}

// plainAPIKeyTypeAhead: in plain mode, a y typed with the builder form's
// last answer, ahead of "Create an API key for the builder as well?", is
// discarded before that question asks, and said: the No typed once it
// shows, as a question that signs is answered, is its answer, and no API
// key is asked for.
func (r *pasteRig) plainAPIKeyTypeAhead(t *testing.T) {
	s := r.start(t, ptyStart{}, "--plain")
	const short = 15 * time.Second
	s.answer("Which environment?", "rig", short)
	s.answer("How do you log in?", "API key", short)
	s.answer("API key (not shown as you type): ", sandbox.DemoAPIKey, short)
	s.answer("Home: what next?", "Builder authorization", short)
	s.answer("Builder account address", sandbox.BuilderAddress, short)
	s.answer("Max futures fee", "0.1", short)
	s.answer("Max spot fee", "0.05", short)
	s.waitFor("Valid for", short)
	s.paste("7d\ny\n")
	s.waitFor("Create an API key for the builder as well?", short)
	s.answerReviewed("  2. Yes\r\nDiscarded what was typed before this question.\r\nChoose 1 or 2, or type the name", "No", short)
	s.answerReviewed("[y/n] ", "n", short)
	s.answer("Home: what next?", "Quit", short)
	if code := s.wait(short); code != 0 {
		t.Errorf("exit %d", code)
	}
	if out := s.output(); strings.Contains(out, "API key label") || !strings.Contains(out, "Not signed: nothing was signed or sent.") {
		t.Errorf("transcript:\n%s", out)
	}
	r.nothingSent(t, s.output())
}

// stderrNotATerminal (issue 33 item 2): a question written where no one
// reads it (stderr to a file) is not asked: withdraw refuses as it does
// without a terminal, exit 2, though stdin is one.
func (r *pasteRig) stderrNotATerminal(t *testing.T) {
	log, err := os.Create(filepath.Join(r.dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	s := r.start(t, ptyStart{typedAhead: "y\n", stderr: log}, "withdraw", "--chain", "arbitrum", "--to", sandbox.DestCompleted, "--amount", "25")
	code := s.wait(15 * time.Second)
	said, _ := os.ReadFile(log.Name())
	if code != exitUsage || !strings.Contains(string(said), "standard input or standard error is not a terminal") {
		t.Errorf("exit %d; stderr:\n%s", code, said)
	}
	r.nothingSent(t, string(said))
}
