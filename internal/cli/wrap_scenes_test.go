package cli

import (
	"bytes"
	"context"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// errOutput is the runs' standard error: r.stderr, else errOut.
func (r *statusRig) errOutput(errOut *bytes.Buffer) io.Writer {
	if r.stderr != nil {
		return r.stderr
	}
	return errOut
}

// wrapScene is one run of a command whose words plain mode's fit wraps on
// a terminal: its error line, status and history's lines, key's prose, an
// offline preparation, a review and its acceptance.
type wrapScene struct {
	name string
	run  func(stdout, stderr io.Writer) int
}

// wrapScenes are the runs the wrap is checked on, each making what it
// asks about, so a scene run twice says the same but for its ids, times
// and keys (maskRun).
func wrapScenes(t *testing.T) []wrapScene {
	lightScrypt(t)
	withdrawState(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the config key new names
	r := newStatusRig(t)
	on := func(stdout, stderr io.Writer) {
		r.stdout, r.stderr = stdout, stderr
		t.Cleanup(func() { r.stdout, r.stderr = nil, nil })
	}
	status := func(args ...string) func(stdout, stderr io.Writer) int {
		return func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			id := r.withdraw(sandbox.DemoAPIKey, sandbox.DemoPrivateKey, sandbox.DestCompleted, true)
			return r.run(nil, append([]string{id}, args...)...).code
		}
	}
	keys := filepath.Join(t.TempDir(), "keys")
	key := func(stdin string, args ...string) func(stdout, stderr io.Writer) int {
		return func(stdout, stderr io.Writer) int {
			in := strings.NewReader(stdin)
			return Run(append([]string{"key"}, args...), CLIEnv{Stdin: in, Stdout: stdout, Stderr: stderr,
				Getenv:     func(string) string { return "" },
				ReadSecret: func(context.Context, string) (string, error) { return plain.ReadLine(in) }})
		}
	}
	return []wrapScene{
		{"withdraw --yes", func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			return r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--max-fee", "2", "--yes")...).code
		}},
		{"withdraw --signer offline", func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			out := filepath.Join(t.TempDir(), "transfer.json")
			return r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--signer", "offline", "--account", demoSigner, "--out", out)...).code
		}},
		{"status ID", status()},
		{"status ID --watch", status("--watch")},
		{"status unknown", func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			return r.run(nil, "q-nosuchwithdrawal0000000000").code
		}},
		{"status usage", func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			return r.run(nil, "--interval", "1ms", "--watch", "q-nosuchwithdrawal0000000000").code
		}},
		{"history", func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			return r.runLine(nil, statusCmd.runHistoryLine).code
		}},
		{"history --since", func(stdout, stderr io.Writer) int {
			on(stdout, stderr)
			return r.runLine(nil, statusCmd.runHistoryLine, "--since", "2099-01-01").code
		}},
		{"key list empty", key("", "list", "--keystore", keys)},
		{"key new", key(lines(cliPass, cliPass), "new", "--keystore", keys)},
		{"key new builder", key(lines(cliPass, cliPass), "new", "--keystore", signer.BuilderKeysDir(keys))},
		{"key list", key("", "list", "--keystore", keys)},
	}
}

// TestFitKnowsEveryCommand: the fit keeps whole a command it knows by its
// name (nil): one it did not know would be broken at spaces.
// A help topic (svcwallet help offline) runs as help.
func TestFitKnowsEveryCommand(t *testing.T) {
	root := newApp(CLIEnv{}).rootCommand()
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	var names []string
	for _, c := range root.Commands() {
		if !c.Hidden && !c.IsAdditionalHelpTopicCommand() {
			names = append(names, c.Name())
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, plain.Commands) {
		t.Errorf("the commands are %q; plain.Commands holds %q", names, plain.Commands)
	}
}

// TestFitKnowsEveryArgument: the fit ends a command where its arguments
// end by the subcommands (and the argument each takes) and the switches
// of the command line (nil): with one it did not know, the command ended
// before it, or took the sentence's next word as a flag's value.
func TestFitKnowsEveryArgument(t *testing.T) {
	root := newApp(CLIEnv{}).rootCommand()
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	root.InitDefaultHelpFlag()
	subs := map[string][]string{}
	switches, valued := map[string]bool{}, map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				is := map[bool]map[string]bool{true: switches, false: valued}[f.Value.Type() == "bool"]
				is[f.Name] = true
				if f.Shorthand != "" {
					is[f.Shorthand] = true
				}
			})
		}
		for _, sub := range c.Commands() {
			if sub.Hidden {
				continue
			}
			if c == root && sub.IsAdditionalHelpTopicCommand() || c != root {
				parent := c.Name()
				if c == root {
					parent = "help"
				}
				subs[parent] = append(subs[parent], strings.TrimSuffix(sub.Use, "..."))
			}
			if c == root && !sub.IsAdditionalHelpTopicCommand() {
				subs["help"] = append(subs["help"], sub.Name())
			}
			walk(sub)
		}
	}
	walk(root)
	for name, uses := range subs {
		slices.Sort(uses)
		want := slices.Sorted(slices.Values(plain.Subcommands[name]))
		if !slices.Equal(uses, want) {
			t.Errorf("%s's subcommands are %q; plain.Subcommands holds %q", name, uses, want)
		}
	}
	if len(subs) != len(plain.Subcommands) {
		t.Errorf("commands with subcommands: %d; plain.Subcommands holds %d", len(subs), len(plain.Subcommands))
	}
	for name := range switches {
		if valued[name] {
			t.Errorf("--%s is a switch on one command and takes a value on another: the fit cannot tell", name)
		}
	}
	if got := slices.Sorted(maps.Keys(switches)); !slices.Equal(got, plain.Switches) {
		t.Errorf("the switches are %q; plain.Switches holds %q", got, plain.Switches)
	}
}

// runMasks are what differs between two runs of a scene: its folders, the
// sandbox's port, ids, hashes, addresses, times and nonces.
var runMasks = []struct {
	re *regexp.Regexp
	to string
}{
	{regexp.MustCompile(regexp.QuoteMeta(os.TempDir()) + "[^\\s'\"`);,]*"), "TMP"},
	{regexp.MustCompile(`127\.0\.0\.1:\d+`), "HOST"},
	{regexp.MustCompile(`\bq-[a-z0-9]{26}\b`), "Q-ID"},
	{regexp.MustCompile(`\btx-[a-z0-9]{26}\b`), "TX-ID"},
	{regexp.MustCompile(`0x[0-9a-fA-F]{64}`), "HASH"},
	{regexp.MustCompile(`0x[0-9a-fA-F]{40}`), "ADDRESS"},
	{regexp.MustCompile(`UTC--[0-9TZ.-]+--[0-9a-f]{40}`), "KEYFILE"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?Z?`), "TIME"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\d`), "DATE"},
	{regexp.MustCompile(`\b\d{10,}\b`), "N"},
}

// maskRun is a run's output with what differs between runs masked.
func maskRun(s string) string {
	for _, m := range runMasks {
		s = m.re.ReplaceAllString(s, m.to)
	}
	return s
}

// piped runs scene with stdout and stderr pipes, as a script reads it.
func piped(t *testing.T, scene wrapScene) (code int, stdout, stderr string) {
	t.Helper()
	read := func() (*os.File, func() string) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		var wg sync.WaitGroup
		wg.Add(1)
		go func() { defer wg.Done(); _, _ = io.Copy(&b, r); r.Close() }()
		return w, func() string { w.Close(); wg.Wait(); return b.String() }
	}
	out, outText := read()
	errOut, errText := read()
	code = scene.run(out, errOut)
	return code, outText(), errText()
}

// TestPipedOutputUnchanged: off a terminal (pipes) the lines the fit wraps
// on one are written byte for byte as before it did (the golden file was
// written by the code before status, history, key, the error line and the
// offline preparation went through it, and rows hung their values).
func TestPipedOutputUnchanged(t *testing.T) {
	var b strings.Builder
	for _, s := range wrapScenes(t) {
		code, stdout, stderr := piped(t, s)
		b.WriteString("# " + s.name + ", exit " + string(rune('0'+code)) + "\n## stdout\n" + stdout + "## stderr\n" + stderr)
	}
	golden.RequireEqual(t, maskRun(b.String()))
}
