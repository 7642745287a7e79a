package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// firstWriteFails refuses its first write (the command's document), or
// the one after the first after writes, and keeps the rest (the error line
// that says so).
type firstWriteFails struct {
	after  int
	failed bool
	kept   bytes.Buffer
}

func (w *firstWriteFails) Write(p []byte) (int, error) {
	if !w.failed && w.after == 0 {
		w.failed = true
		return 0, errors.New("no space left on device")
	}
	w.after--
	return w.kept.Write(p)
}

// TestJSONNotWrittenIsAnOutputError: a --json document stdout does not
// take is the one output error (outputError) in every command that prints
// one whole: exit 1, code output, saying it could not be written. doctor
// said "the report", deposit, builder and the key commands said only the
// system's error, with code failed.
func TestJSONNotWrittenIsAnOutputError(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	run := func(args ...string) (int, string) {
		out := &firstWriteFails{}
		var errOut bytes.Buffer
		code := Run(args, CLIEnv{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errOut, Getenv: func(string) string { return "" }})
		return code, out.kept.String()
	}
	doctorRun := func(args ...string) (int, string) {
		out := &firstWriteFails{}
		c := doctorCmd{tmuxOption: noTmux, goos: runtime.GOOS, protect: func() error { return nil }, ownerOnly: func(string) error { return nil },
			env: CLIEnv{Stdin: strings.NewReader(""), Stdout: out, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }}}
		return c.runLine(args), out.kept.String()
	}
	lightScrypt(t)
	keys, pw := t.TempDir(), filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("a passphrase\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, ran := range map[string]func() (int, string){
		"key new":  func() (int, string) { return run("key", "new", "--keystore", keys, "--password-file", pw, "--json") },
		"key list": func() (int, string) { return run("key", "list", "--keystore", keys, "--json") },
		"deposit":  func() (int, string) { return run("deposit", "--env", "sandbox", "--json") },
		"builder": func() (int, string) {
			return run("builder", "authorize", "--env", "sandbox", "--dry-run", "--account", sandbox.DemoAddress, "--builder", sandbox.BuilderAddress,
				"--max-futures-fee", "0.1", "--max-spot-fee", "0.05", "--json")
		},
		"version":  func() (int, string) { return run("version", "--json") },
		"env list": func() (int, string) { return run("env", "list", "--json") },
		"doctor":   func() (int, string) { return doctorRun("--json") },
	} {
		code, said := ran()
		var e errorJSON
		if err := json.Unmarshal([]byte(said), &e); err != nil {
			t.Errorf("%s: exit %d, no error line (%v): %q", name, code, err, said)
			continue
		}
		if code != exitFailed || e.Error.Code != "output" || !strings.HasPrefix(e.Error.Message, "cannot write the output: ") {
			t.Errorf("%s: exit %d, %+v; want exit 1, code output, cannot write the output", name, code, e.Error)
		}
		// The key was written: one made again for want of its file would
		// not be the one whose address was shared.
		if name == "key new" && !strings.Contains(e.Error.Message, "; the key is kept in "+keys) {
			t.Errorf("key new: %q does not name the key's file", e.Error.Message)
		}
	}
}

// TestHistoryNotTakenIsAnOutputError: a listing stdout does not take,
// whole or cut once more than its buffer was written, is the output
// error in every format; it never blames the journal, which was read.
func TestHistoryNotTakenIsAnOutputError(t *testing.T) {
	cfg, j, t0, intent := emptyHistory(t)
	// More than the listing's 64 KiB buffer as JSON, so its first write
	// comes while the journal is read; the text and CSV ones at its end.
	// The lines are written at once, as Append writes each: 120 Appends
	// are 120 fsyncs and records of what was written, a second on a busy disk.
	var lines []byte
	for i := range 120 {
		e := journal.Entry{Time: t0.Add(time.Duration(i) * time.Minute), Env: "local", Kind: journal.KindIntent, QuoteID: fmt.Sprintf("q-%04d", i), Intent: intent}
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, line...), '\n')
	}
	if err := os.WriteFile(j.Path(), lines, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"--json", "--csv", ""} {
		out := &firstWriteFails{}
		var errOut bytes.Buffer
		code := Run(slices.DeleteFunc([]string{"history", "--config", cfg, "--env", "local", format}, func(s string) bool { return s == "" }),
			CLIEnv{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errOut, Getenv: func(string) string { return "" }})
		said := errOut.String() + out.kept.String()
		if code != exitFailed || !strings.Contains(said, "cannot write the output: no space left on device") || strings.Contains(said, "journal") {
			t.Errorf("history %s: exit %d, said %q; want exit 1, cannot write the output", format, code, said)
		}
		if format == "--json" && !strings.Contains(said, `"code":"output"`) {
			t.Errorf("history --json: %q, want code output", said)
		}
	}
}

// TestBuilderPreparedNotWrittenIsAnOutputError: builder authorize
// --signer offline --json is builder authorize's document too: one stdout
// does not take is the output error, as the signed one's is.
func TestBuilderPreparedNotWrittenIsAnOutputError(t *testing.T) {
	r := newBoRig(t)
	out := &firstWriteFails{}
	c := builderCmd{env: CLIEnv{Stdin: strings.NewReader(""), Stdout: out, Stderr: &bytes.Buffer{}, Getenv: func(string) string { return "" }},
		now: r.clock.Now, nonce: signer.NewNonce}
	code := c.runLine([]string{"authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05",
		"--signer", "offline", "--account", sandbox.DemoAddress, "--out", filepath.Join(t.TempDir(), "builder.json"), "--config", r.config, "--env", "local", "--json"})
	var e errorJSON
	if err := json.Unmarshal(out.kept.Bytes(), &e); err != nil || code != exitFailed || e.Error.Code != "output" || !strings.HasPrefix(e.Error.Message, "cannot write the output: ") {
		t.Errorf("exit %d, %q; want exit 1, code output, cannot write the output", code, out.kept.String())
	}
}

// TestTextNotWrittenIsAnOutputError: deposit's table and key import's
// address, written where nothing can be (svcwallet deposit > /dev/full),
// end as a --json document not written does (outputError): exit 1,
// saying so. deposit exited 0, and key import said only the system's
// error.
func TestTextNotWrittenIsAnOutputError(t *testing.T) {
	lightScrypt(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	for name, args := range map[string][]string{
		"deposit":    {"deposit", "--env", "sandbox"},
		"key import": {"key", "import", "--keystore", t.TempDir()},
	} {
		var errOut bytes.Buffer
		secrets := []string{sandbox.DemoPrivateKey, "a passphrase", "a passphrase"}
		code := Run(args, CLIEnv{Stdin: strings.NewReader(""), Stdout: &firstWriteFails{}, Stderr: &errOut, Getenv: func(string) string { return "" },
			ReadSecret: func(context.Context, string) (string, error) { s := secrets[0]; secrets = secrets[1:]; return s, nil }})
		if code != exitFailed || !strings.Contains(errOut.String(), ": cannot write the output: no space left on device") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1, cannot write the output", name, code, errOut.String())
		}
	}
}

// TestDocumentNotWrittenIsTheCommandsOtherError: a command's document that
// stdout does not take, whichever line of it, is the one output error
// (code output) with the command's status for other errors: 5 for status
// and withdraw, whose 1 is an outcome (not paid out, refused), never 0.
// status > /dev/full exited 0 as if COMPLETED, and withdraw --signer offline
// --json exited 5 when its review line was not written, 1 when its
// prepared line was not.
func TestDocumentNotWrittenIsTheCommandsOtherError(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
	wantOutput := func(name string, code int, out *firstWriteFails, stderr string) {
		t.Helper()
		said := out.kept.String() + stderr
		if code != exitError || !strings.Contains(said, "cannot write the output: no space left on device") {
			t.Errorf("%s: exit %d, said %q; want exit 5, cannot write the output", name, code, said)
		}
	}
	for _, format := range []string{"--json", "--csv", ""} {
		out := &firstWriteFails{}
		r.stdout = out
		res := r.run(nil, slices.DeleteFunc([]string{id, format}, func(s string) bool { return s == "" })...)
		wantOutput("status "+format, res.code, out, res.stderr)
		if format == "--json" && !strings.Contains(out.kept.String(), `"code":"output"`) {
			t.Errorf("status --json: %q, want code output", out.kept.String())
		}
	}
	// The review line, then the prepared line.
	for after := range 2 {
		out := &firstWriteFails{after: after}
		r.stdout = out
		file := filepath.Join(t.TempDir(), "transfer.json")
		res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", file, "--json")...)
		wantOutput(fmt.Sprintf("withdraw --signer offline --json, line %d", after+1), res.code, out, res.stderr)
		if !strings.Contains(out.kept.String(), `"code":"output"`) {
			t.Errorf("withdraw, line %d: %q, want code output", after+1, out.kept.String())
		}
	}
	r.stdout = nil
}

// TestWithdrawNotWrittenNeverPaysUnsaid: withdraw --yes whose review
// stdout does not take stops before signing, as with --json (nothing
// paid); one whose acceptance stdout does not take names the withdrawal
// accepted and its quote id (exit 5, code output): a script reading only
// "cannot write the output" ran it again and paid twice.
func TestWithdrawNotWrittenNeverPaysUnsaid(t *testing.T) {
	r := newStatusRig(t)
	withdrawState(t)
	for _, format := range []string{"", "--json"} {
		out := &firstWriteFails{}
		r.stdout = out
		res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", slices.DeleteFunc([]string{"--yes", format}, func(s string) bool { return s == "" })...)...)
		said := out.kept.String() + res.stderr
		if res.code != exitError || !strings.Contains(said, "nothing was signed or sent") {
			t.Errorf("withdraw --yes %s, its review not written: exit %d, said %q; want 5, nothing signed", format, res.code, said)
		}
		r.wantBalance("10000")
	}
	for i, format := range []string{"", "--json"} {
		out := &firstWriteFails{after: 1}
		r.stdout = out
		res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", slices.DeleteFunc([]string{"--yes", format}, func(s string) bool { return s == "" })...)...)
		said := out.kept.String() + res.stderr
		id := regexp.MustCompile(`q-[a-z0-9]+`).FindString(said)
		if res.code != exitError || id == "" || !strings.Contains(said, "withdrawal "+id+" was accepted") || !strings.Contains(said, "cannot be written") {
			t.Errorf("withdraw --yes %s, its acceptance not written: exit %d, said %q; want 5 naming the accepted withdrawal", format, res.code, said)
		}
		if format == "--json" && !strings.Contains(said, `"code":"output"`) || format == "--json" && !strings.Contains(said, `"quote_id":"`+id+`"`) {
			t.Errorf("withdraw --json, its acceptance not written: %q, want code output and its quote_id", said)
		}
		r.wantBalance(strconv.Itoa(10000 - 25*(i+1)))
	}
	r.stdout = nil
}

// TestBuilderResultNotWrittenIsNoRefusal: builder authorize --yes whose
// review stdout does not take signs nothing; one authorized whose answer
// stdout does not take exits 5 (code output) saying the builder is
// authorized and where to revoke the API key it was never shown: it
// exited 1, which says refused, and authorizing again signs anew.
func TestBuilderResultNotWrittenIsNoRefusal(t *testing.T) {
	e := newBcliEnv(t)
	run := func(out *firstWriteFails, args ...string) (int, string) {
		var errOut bytes.Buffer
		c := builderCmd{env: CLIEnv{Stdin: strings.NewReader(""), Stdout: out, Stderr: &errOut, Getenv: func(k string) string { return demoKeyVars[k] }},
			now: time.Now, nonce: signer.NewNonce, terminal: func(CLIEnv) bool { return false }}
		code := c.runLine(authorizeArgs(e, append(keyArgs, args...)...))
		return code, out.kept.String() + errOut.String()
	}
	code, said := run(&firstWriteFails{})
	if code != exitFailed || !strings.Contains(said, "cannot write the output: no space left on device; nothing was signed or sent") || e.requests.Load() != 0 {
		t.Errorf("its review not written: exit %d, %d requests, said %q; want 1, nothing signed nor sent", code, e.requests.Load(), said)
	}
	for name, out := range map[string]*firstWriteFails{"text": {after: 1}, "--json": {}} {
		code, said := run(out, slices.DeleteFunc([]string{name}, func(s string) bool { return s == "text" })...)
		if code != exitError || !strings.Contains(said, sandbox.BuilderAddress+" is authorized, but its answer cannot be written to the output (no space left on device)") ||
			!strings.Contains(said, `revoke it there`) || strings.Contains(said, "store it now") {
			t.Errorf("%s, the authorization not written: exit %d, said %q; want 5, authorized, where to revoke", name, code, said)
		}
		if name == "--json" && !strings.Contains(said, `"code":"output"`) {
			t.Errorf("--json: %q, want code output", said)
		}
	}
}

// TestRootHelpNotWrittenIsAnOutputError: svcwallet --help and --version
// that stdout does not take end as any command's document not taken
// (exit 1, cannot write the output): --help exited 0, and --version 2
// as a usage error.
func TestRootHelpNotWrittenIsAnOutputError(t *testing.T) {
	for _, flag := range []string{"--help", "--version"} {
		var errOut bytes.Buffer
		code := Run([]string{flag}, CLIEnv{Stdin: strings.NewReader(""), Stdout: &firstWriteFails{}, Stderr: &errOut, Getenv: func(string) string { return "" }})
		if code != exitFailed || !strings.Contains(errOut.String(), "svcwallet: cannot write the output: no space left on device") || strings.Contains(errOut.String(), "--help' for usage") {
			t.Errorf("svcwallet %s not written: exit %d, stderr %q; want 1, cannot write the output", flag, code, errOut.String())
		}
	}
}

// writesKept counts every write to stdout, refuses the one at index
// failAt (-1: none), or every one from it on when full (a disk filling up
// mid-follow), and keeps the rest.
type writesKept struct {
	failAt int
	full   bool
	writes []string // every write, refused or not
	kept   bytes.Buffer
}

func (w *writesKept) Write(p []byte) (int, error) {
	n := len(w.writes)
	w.writes = append(w.writes, string(p))
	if w.failAt >= 0 && (n == w.failAt || w.full && n > w.failAt) {
		return 0, errors.New("no space left on device")
	}
	return w.kept.Write(p)
}

// TestWithdrawFollowNotWrittenSaysAccepted: withdraw --wait whose stdout
// refuses any line after the acceptance (the follow's states, its record)
// says the withdrawal was accepted, its quote id and how to follow it, as
// an acceptance not written does (exit 5, code output): it ended with a
// bare "cannot write the output", read as nothing paid.
func TestWithdrawFollowNotWrittenSaysAccepted(t *testing.T) {
	r := newJournalingRig(t)
	paid := 0
	for _, format := range []string{"", "--json"} {
		args := withdrawArgs(sandbox.DestCompleted, "25", slices.DeleteFunc([]string{"--yes", "--wait", format}, func(s string) bool { return s == "" })...)
		whole := &writesKept{failAt: -1}
		r.stdout = whole
		r.runWithdraw(withdrawRunOpts{}, args...).want(t, exitCompleted)
		paid++
		accepted := slices.IndexFunc(whole.writes, func(s string) bool {
			return strings.Contains(s, "Withdrawal accepted") || strings.Contains(s, `"kind":"accepted"`)
		})
		if accepted < 0 || accepted == len(whole.writes)-1 {
			t.Fatalf("withdraw --wait %s: no line after the acceptance in %q", format, whole.writes)
		}
		for at := accepted + 1; at < len(whole.writes); at++ {
			// Text says it on stderr, so stdout is full; --json on
			// stdout, so only the one line is refused.
			out := &writesKept{failAt: at, full: format == ""}
			r.stdout = out
			res := r.runWithdraw(withdrawRunOpts{}, args...)
			paid++
			said := out.kept.String() + res.stderr
			id := regexp.MustCompile(`q-[a-z0-9]+`).FindString(strings.Join(out.writes[:at], ""))
			if res.code != exitError || id == "" || !strings.Contains(said, "withdrawal "+id+" was accepted, but its status cannot be written to the output (no space left on device): follow it with ") ||
				!strings.Contains(said, "; the same command again would pay again") {
				t.Errorf("withdraw --wait %s, write %d of %d refused: exit %d, said %q; want 5 naming the accepted withdrawal", format, at+1, len(whole.writes), res.code, said)
			}
			if format == "--json" && (!strings.Contains(said, `"code":"output"`) || !strings.Contains(said, `"quote_id":"`+id+`"`)) {
				t.Errorf("withdraw --wait --json, write %d refused: %q, want code output and its quote_id", at+1, said)
			}
		}
	}
	// The stream's own error line about it (the follow gave up), the
	// app's to say, refused with --json.
	r.failing.Store(true)
	out := &writesKept{failAt: 2}
	r.stdout = out
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--wait", "--json")...)
	paid++
	r.failing.Store(false)
	if said := out.kept.String(); res.code != exitError || len(out.writes) != 4 || !strings.Contains(out.writes[2], "gave up") ||
		!strings.Contains(said, "was accepted, but its status cannot be written to the output") {
		t.Errorf("withdraw --wait --json, its error line refused: exit %d, wrote %q; want 5 naming the accepted withdrawal", res.code, out.writes)
	}
	r.stdout = nil
	r.wantBalance(strconv.Itoa(10000 - 25*paid))
}

// refusesAccepted refuses the write of withdraw's acceptance, and keeps
// every other.
type refusesAccepted struct{ kept bytes.Buffer }

func (w *refusesAccepted) Write(p []byte) (int, error) {
	if bytes.Contains(p, []byte("Withdrawal accepted")) {
		return 0, errors.New("no space left on device")
	}
	return w.kept.Write(p)
}

// TestEmbeddedAcceptedNotWrittenSaysNoFollow: on the embedded sandbox a
// withdrawal whose acceptance stdout refuses is said accepted without the
// status to follow it with nor a warning that running it again pays
// again: its quote ids end with the command (status says not found), and
// nothing real moved.
func TestEmbeddedAcceptedNotWrittenSaysNoFollow(t *testing.T) {
	r := newJournalingRig(t)
	out := &refusesAccepted{}
	r.stdout = out
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--yes", "--env", "sandbox")...)
	r.stdout = nil
	if res.code != exitError || !strings.Contains(res.stderr, "was accepted, but its acceptance cannot be written to the output (no space left on device): the embedded sandbox ended with this command, and nothing real moved") ||
		strings.Contains(res.stderr, "status") || strings.Contains(res.stderr, "pay again") {
		t.Errorf("exit %d, stderr %q; want 5, accepted, nothing to follow", res.code, res.stderr)
	}
}
