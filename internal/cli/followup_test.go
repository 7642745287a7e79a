package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// runPrinted runs one command line as a user pastes it into a shell: the
// words as given, nothing added (no --config, no --env), with the rig's
// clock for status and withdraw, the demo API key and private key, and
// vars on top of them. line starts with "svcwallet".
func (r *statusRig) runPrinted(vars map[string]string, line string) withdrawRun {
	r.t.Helper()
	words := strings.Fields(line)
	if len(words) == 0 || words[0] != "svcwallet" {
		r.t.Fatalf("not a svcwallet command line: %q", line)
	}
	var out, errOut bytes.Buffer
	env := CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(k string) string {
		if v, ok := vars[k]; ok {
			return v
		}
		switch k {
		case apiKeyVar:
			return sandbox.DemoAPIKey
		case signer.KeyEnvVar:
			return sandbox.DemoPrivateKey
		}
		return ""
	}}
	sleep := func(_ context.Context, d time.Duration) error { r.clock.Advance(d); return nil }
	a := newApp(env)
	a.status = statusCmd{env: env, now: r.clock.Now, jitter: func(int64) int64 { return 0 }, sleep: sleep}
	a.withdraw = withdrawCmd{env: env, now: r.clock.Now, nonce: func() uint32 { return wcliNonce + r.nonces.Add(1) - 1 },
		jitter: func(int64) int64 { return 0 }, sleep: sleep,
		retry:    exchange.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: time.Millisecond, Sleep: sleep},
		terminal: func(CLIEnv) bool { return false }}
	code := a.execute(words[1:])
	return withdrawRun{code, out.String(), errOut.String()}
}

// printedCommand is the command line in out that starts with prefix, up to
// the end of its line or a "(" that comments it.
func printedCommand(t *testing.T, out, prefix string) string {
	t.Helper()
	i := strings.Index(out, prefix)
	if i < 0 {
		t.Fatalf("no %q in:\n%s", prefix, out)
	}
	line, _, _ := strings.Cut(out[i:], "\n")
	line, _, _ = strings.Cut(line, " (")
	return strings.TrimSpace(line)
}

// defaultConfigWithoutDefaultEnv writes the rig's environment "local" into
// the default config file, with no default_env: a command without --env
// goes to the embedded sandbox.
func (r *statusRig) defaultConfigWithoutDefaultEnv(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	b, err := os.ReadFile(r.config)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "svcwallet", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(`default_env = "local"`), nil, 1), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestPrintedCommandsRunAsPrinted (review item 1): every command withdraw
// prints for the user to run next (follow it, resume it) carries the
// --env in use, and --config when one was named, so that pasted as it is
// it reaches the same environment; without them it would go to the
// embedded sandbox, which knows none of it.
func TestPrintedCommandsRunAsPrinted(t *testing.T) {
	r := newJournalingRig(t)
	r.defaultConfigWithoutDefaultEnv(t)
	wd := "svcwallet withdraw --env local --chain arbitrum --to " + sandbox.DestCompleted + " --amount 25 --yes"

	res := r.runPrinted(nil, wd)
	res.want(t, 0, "Withdrawal accepted")
	follow := printedCommand(t, res.stdout, "svcwallet status ")
	id := quoteIDOf(t, res.stdout)
	if follow != "svcwallet status "+id+" --watch --env local" {
		t.Fatalf("the follow-up is %q", follow)
	}
	r.runPrinted(nil, follow).want(t, exitCompleted, "COMPLETED")
	// What the reviewer saw: without --env the id is on no environment the
	// command reaches.
	r.runPrinted(nil, strings.TrimSuffix(follow, " --env local")).want(t, exitNotFound)

	// A request left without an answer: the resume it names finishes it.
	var down atomic.Bool
	down.Store(true)
	r.faultWhile(&down, sandbox.PhaseBeforeCommit, sandbox.FaultBadGateway)
	res = r.runPrinted(nil, wd)
	res.want(t, exitError, "it is journaled: run svcwallet withdraw resume q-")
	resume := printedCommand(t, res.stderr, "svcwallet withdraw resume ")
	if !strings.HasSuffix(resume, " --env local") {
		t.Fatalf("the resume is %q", resume)
	}
	down.Store(false)
	r.runPrinted(nil, resume).want(t, exitCompleted, "Withdrawal accepted", "COMPLETED")
	r.wantBalance("9950")

	// A config named on the command line is named again; the environment
	// is the one in use, here its default_env.
	res = r.runPrinted(nil, "svcwallet withdraw --config "+r.config+" --chain arbitrum --to "+sandbox.DestCompleted+" --amount 25 --yes")
	res.want(t, 0, "Withdrawal accepted")
	follow = printedCommand(t, res.stdout, "svcwallet status ")
	if !strings.HasSuffix(follow, " --watch --env local --config "+r.config) {
		t.Fatalf("the follow-up is %q", follow)
	}
	r.runPrinted(nil, follow).want(t, exitCompleted, "COMPLETED")
	// $SVCWALLET_CONFIG and $SVCWALLET_ENV choose too: the printed command
	// does not depend on them.
	vars := map[string]string{configPathVar: r.config, envNameVar: "local"}
	res = r.runPrinted(vars, "svcwallet withdraw --chain arbitrum --to "+sandbox.DestCompleted+" --amount 25 --yes")
	follow = printedCommand(t, res.stdout, "svcwallet status ")
	if !strings.HasSuffix(follow, " --watch --env local --config "+r.config) {
		t.Fatalf("with the variables, the follow-up is %q", follow)
	}
	r.runPrinted(nil, follow).want(t, exitCompleted, "COMPLETED")
}

// TestPrintedOfflineCommandsRunAsPrinted: the submit command prepare prints,
// and the follow-up a second submit names, carry the environment chosen by
// $SVCWALLET_ENV, and run as printed.
func TestPrintedOfflineCommandsRunAsPrinted(t *testing.T) {
	r := newJournalingRig(t)
	r.defaultConfigWithoutDefaultEnv(t)
	out := filepath.Join(t.TempDir(), "transfer.json")
	res := r.runPrinted(map[string]string{envNameVar: "local"}, "svcwallet withdraw --signer offline --account "+demoSigner+" --out "+out+
		" --chain arbitrum --to "+sandbox.DestCompleted+" --amount 25")
	res.want(t, 0, "Prepared for offline signing")
	submit := printedCommand(t, res.stdout, "svcwallet withdraw submit ")
	if submit != "svcwallet withdraw submit "+out+" --signature 0x… --env local" {
		t.Fatalf("the submit command is %q", submit)
	}
	submit = strings.Replace(submit, "0x…", signFile(t, out, sandbox.DemoPrivateKey), 1)
	r.runPrinted(nil, submit).want(t, 0, "Withdrawal accepted")
	res = r.runPrinted(nil, submit)
	res.want(t, exitFailed, "submitted already")
	follow := printedCommand(t, res.stderr, "svcwallet status ")
	r.runPrinted(nil, follow).want(t, exitCompleted, "COMPLETED")
}

// TestInvocationCommand: the environment and the config named follow the
// words, quoted where a shell would split them; the ellipsis the user
// fills in is not.
func TestInvocationCommand(t *testing.T) {
	v := invocation{env: "local", config: "/home/me/my configs/svc.toml"}
	got := v.command("withdraw", "submit", "it's.json", "--signature", "0x…")
	want := `svcwallet withdraw submit 'it'\''s.json' --signature 0x… --env local --config '/home/me/my configs/svc.toml'`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := (invocation{}).command("key", "new"); got != "svcwallet key new" {
		t.Fatalf("no environment: %s", got)
	}
	// A path a terminal would not show as it is: left out, and said so.
	v.config = "/home/me/cfg\x1b[31m\u202ered/svc.toml"
	if got, want := v.command("status", "q-1", "--watch"), "svcwallet status q-1 --watch --env local"+safetext.LeftOut("--config"); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
