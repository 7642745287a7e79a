package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestUsageErrorsOneStyle: a bad flag, an unknown command, a missing or
// extra argument all exit 2 with the same two lines on stderr, nothing on
// stdout; with --json, one error object on stdout instead.
func TestUsageErrorsOneStyle(t *testing.T) {
	for _, tc := range []struct {
		args []string
		cmd  string
	}{
		{[]string{"--bogus"}, "svcwallet"},
		{[]string{"bogus"}, "svcwallet"},
		{[]string{"stauts"}, "svcwallet"},
		{[]string{"help", "bogus"}, "svcwallet help"},
		{[]string{"status", "--bogus", "q-1"}, "svcwallet status"},
		{[]string{"status"}, "svcwallet status"},
		{[]string{"deposit", "generate"}, "svcwallet deposit generate"},
		{[]string{"deposit", "frob"}, "svcwallet deposit"},
		{[]string{"key"}, "svcwallet key"},
		{[]string{"key", "new", "--bogus"}, "svcwallet key new"},
		{[]string{"builder", "authorize", "extra"}, "svcwallet builder authorize"},
		{[]string{"history", "--interval", "3s"}, "svcwallet history"},
		{[]string{"doctor", "x"}, "svcwallet doctor"},
		{[]string{"sandbox", "--chain-id", "x"}, "svcwallet sandbox"},
		{[]string{"version", "x"}, "svcwallet version"},
		{[]string{"--theme", "blue"}, "svcwallet"},
		{[]string{"completion"}, "svcwallet completion"},
		{[]string{"completion", "tcsh"}, "svcwallet completion"},
	} {
		r := depositCmd(t, nil, tc.args...)
		lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
		if r.code != exitUsage || r.stdout != "" || len(lines) != 2 || !strings.HasPrefix(lines[0], tc.cmd+": ") ||
			lines[1] != "run '"+tc.cmd+" --help' for usage" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, r.code, r.stdout, r.stderr)
		}
		j := depositCmd(t, nil, append(tc.args, "--json")...)
		var e errorJSON
		if j.code != exitUsage || j.stderr != "" || json.Unmarshal([]byte(j.stdout), &e) != nil ||
			e.Error.Code != "usage" || e.Error.Exit != exitUsage || e.Error.Message != strings.TrimPrefix(lines[0], tc.cmd+": ") {
			t.Errorf("%q --json: exit %d, stdout %q, stderr %q", tc.args, j.code, j.stdout, j.stderr)
		}
	}
}

// TestKeyOnCommandLineNeverEchoed: a key-shaped argument anywhere, to any
// command, as an argument, a flag or a flag's value, or split over two
// arguments or lines, is refused (exit 2) before cobra parses it, and its
// text is in neither stream. To status, 0x and 64 hex digits standing
// alone is a payout hash, looked up here, not found, never sent nor
// repeated (issue 35 item 3).
func TestKeyOnCommandLineNeverEchoed(t *testing.T) {
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	for _, cmd := range [][]string{nil, {"status"}, {"key", "import"}, {"builder", "authorize"}, {"deposit", "generate"}, {"bogus"}} {
		for _, arg := range [][]string{{key}, {"0x" + key}, {"--" + key}, {"--key=" + key}, {"--bogus", "0X" + strings.ToUpper(key)},
			{"-x" + key}, {"-v0x" + key}, {" 0x" + key}, {key + "\r"}, {"--env=a," + key}, {key + ","},
			{"0x" + key[:32], key[32:]}, {key[:32] + "\n" + key[32:]}, {"--env", key[:40] + "\r\n" + key[40:]}} {
			for _, json := range []bool{false, true} {
				args := append(append([]string{}, cmd...), arg...)
				if json {
					args = append(args, "--json")
				}
				r := depositCmd(t, nil, args...)
				hash := len(cmd) == 1 && cmd[0] == "status" && slices.ContainsFunc(arg, follow.IsPayoutHash)
				if hash && r.code != exitUsage && !strings.Contains(r.stdout+r.stderr, "the payout hash you gave was not found") {
					t.Errorf("status %q: exit %d, stdout %q, stderr %q", arg, r.code, r.stdout, r.stderr)
				}
				if !hash && (r.code != exitUsage || !strings.Contains(r.stdout+r.stderr, "refusing a private key on the command line")) {
					t.Errorf("%d words: exit %d, stdout %q, stderr %q", len(args), r.code, r.stdout, r.stderr)
				}
				if out := strings.ToLower(r.stdout + r.stderr); strings.Contains(out, key[:20]) || strings.Contains(out, key[44:]) {
					t.Errorf("%d words: the key is echoed", len(args))
				}
				if json != (r.stderr == "") {
					t.Errorf("json %v: stdout %q, stderr %q", json, r.stdout, r.stderr)
				}
			}
		}
	}
}

// TestStatusStdinKeyNeverSent: a private key given to status - on standard
// input, whole or wrapped over two lines, is refused before any request
// and not repeated; 0x and 64 hex digits standing alone is a payout hash,
// looked up here (TestStatusFindsHashAndTransferID), never sent.
func TestStatusStdinKeyNeverSent(t *testing.T) {
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	for _, line := range []string{key, "0x" + key, "q-ok\n0x" + key + " # pasted", "q-ok # 0x" + key, "q-ok#" + key,
		key[:32] + "\n" + key[32:], "q-ok\n0x" + key[:32] + "\r\n" + key[32:] + "\nq-ok2", key[:32] + " " + key[32:], "# " + key[:32] + "\n" + key[32:]} {
		for _, json := range []string{"", "--json"} {
			args := []string{"status", "-"}
			if json != "" {
				args = append(args, json)
			}
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			t.Setenv("HOME", t.TempDir())
			r := runCLI(line+"\n", nil, args...)
			// 0x and 64 hex digits standing alone is a payout hash, found
			// here or not (exit 4 on the embedded sandbox), never sent.
			hash := strings.Contains(line, "0x"+key+" ") || strings.HasSuffix(line, "0x"+key)
			if r.code != exitUsage && !(hash && r.code == exitNotFound) {
				t.Errorf("%q %s: exit %d, want 2 before any request", line, json, r.code)
			}
			if out := strings.ToLower(r.stdout + r.stderr); strings.Contains(out, key[:20]) || strings.Contains(out, key[44:]) {
				t.Errorf("%q %s: the key is echoed: %q", line, json, out)
			}
		}
	}
}

// TestSubcommandTypoSuggested: a mistyped subcommand of a command with
// subcommands names the one meant, as a mistyped command does; a word near
// none lists them only.
func TestSubcommandTypoSuggested(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"stauts"}, `did you mean status?`},
		// A flag of the command meant, after it: the command is what is
		// wrong (the root parses its flags first).
		{[]string{"sttus", "q-1", "--watch"}, `svcwallet: unknown command "sttus" for "svcwallet"; did you mean status?`},
		{[]string{"sttus", "--interval"}, `svcwallet: unknown command "sttus" for "svcwallet"; did you mean status?`},
		{[]string{"env", "ad", "x"}, `svcwallet env: unknown command "ad"; did you mean add? (the commands are: add, list, remove, use)`},
		{[]string{"key", "lst"}, `unknown command "lst"; did you mean list? (the commands are: import, list, new)`},
		{[]string{"auth", "lgout"}, `did you mean logout?`},
		{[]string{"env", "zzz"}, `svcwallet env: unknown command "zzz"; the commands are: add, list, remove, use`},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestFlagTypoSuggested: a mistyped flag names the one the command takes
// that it is near or begins, one a typo or two away; a flag near none is
// said alone.
func TestFlagTypoSuggested(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "q-1", "--jsno"}, "svcwallet status: unknown flag: --jsno; did you mean --json?\n"},
		{[]string{"withdraw", "--dryrun"}, "unknown flag: --dryrun; did you mean --dry-run?\n"},
		{[]string{"withdraw", "--max", "2"}, "unknown flag: --max; did you mean --max-fee?\n"},
		{[]string{"history", "--limt=3"}, "unknown flag: --limt; did you mean --limit?\n"},
		{[]string{"status", "q-1", "--zzzzzz"}, "svcwallet status: unknown flag: --zzzzzz\n"},
		// Three edits from --csv and --env alike: near neither.
		{[]string{"status", "q-1", "--w"}, "svcwallet status: unknown flag: --w\n"},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestFlagValueWorded: a flag's value the parser refuses, or a flag left
// without one, says what the flag takes, never the parser's own error
// ("strconv.ParseInt: parsing …: invalid syntax").
func TestFlagValueWorded(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "-n", "abc"}, "svcwallet history: --limit: \"abc\" is not a whole number\n"},
		{[]string{"status", "q-1", "--interval", "5"}, "svcwallet status: --interval: \"5\" is not a duration with its unit, such as 3s, 90s or 2m\n"},
		{[]string{"status", "q-1", "--watch=maybe"}, "svcwallet status: --watch: \"maybe\" is not true or false (the flag alone is true)\n"},
		{[]string{"env", "add", "x", "--chain-id", "-1"}, "svcwallet env add: --chain-id: \"-1\" is not a whole number, 0 or more\n"},
		{[]string{"history", "--since"}, "svcwallet history: --since needs a value: --since TIME\n"},
		{[]string{"withdraw", "--to"}, "svcwallet withdraw: --to needs a value\n"},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code != exitUsage || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestGroupCommandAloneNamesItsCommands: a command that only holds
// subcommands, run alone, exits 2 naming them, each group alike.
func TestGroupCommandAloneNamesItsCommands(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"auth"}, "svcwallet auth: give a command: login, logout, status\n"},
		{[]string{"builder"}, "svcwallet builder: give a command: authorize, submit\n"},
		{[]string{"env"}, "svcwallet env: give a command: add, list, remove, use\n"},
		{[]string{"key"}, "svcwallet key: give a command: import, list, new\n"},
		{[]string{"completion"}, "svcwallet completion: give a shell: bash, fish, powershell, zsh\n"},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code != exitUsage || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q first", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestCompletionScripts: each shell's script is written, and names the
// program and cobra's completion command.
func TestCompletionScripts(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		r := depositCmd(t, nil, "completion", shell)
		if r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "svcwallet") || !strings.Contains(r.stdout, "__complete") {
			t.Errorf("%s: exit %d, stderr %q, %d bytes", shell, r.code, r.stderr, len(r.stdout))
		}
	}
}

// TestDynamicCompletion: --env completes the config's names and the
// sandbox, deposit generate completes chain names (the environments'
// explorer_tx ones too), --theme its two words, env use and env remove
// the names they take; none offers files.
func TestDynamicCompletion(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.toml")
	toml := "[env.prod]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 325\n" +
		"[env.prod.explorer_tx]\nmonad = \"https://monad.example/tx/{hash}\"\n" +
		"[env.staging]\nauth_url = \"https://a2.example\"\nbase_url = \"https://b2.example\"\nmarket_data_url = \"https://m2.example\"\nchain_id = 327\n"
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{configPathVar: cfg}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"status", "--env", ""}, []string{"prod", "sandbox", "staging"}},
		{[]string{"--env", "st"}, []string{"prod", "sandbox", "staging"}}, // the shell filters by prefix
		{[]string{"deposit", "generate", "--config", cfg, ""}, []string{"ARBITRUM", "BASE", "BSC", "KAIA", "MONAD", "POLYGON", "SOLANA", "TRON"}},
		{[]string{"--theme", ""}, []string{"light", "dark"}},
		// env use takes any name --env does; env remove, the config's.
		{[]string{"env", "use", ""}, []string{"prod", "sandbox", "staging"}},
		{[]string{"env", "remove", ""}, []string{"prod", "staging"}},
		{[]string{"env", "remove", "prod", ""}, nil},
		{[]string{"env", "add", ""}, nil},
		{[]string{"status", ""}, nil}, // quote ids: none in a journal that is not there, and no files
	} {
		r := depositCmd(t, vars, append([]string{"__complete"}, tc.args...)...)
		got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		want := append(tc.want, ":4") // ShellCompDirectiveNoFileComp
		if tc.args[0] == "status" && tc.args[1] == "" {
			want = []string{":36"} // and ShellCompDirectiveKeepOrder
		}
		if r.code != 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: exit %d, got %q, want %q (stderr %q)", tc.args, r.code, got, want, r.stderr)
		}
	}
}

// TestManPage: `svcwallet man` writes a roff page naming every command.
func TestManPage(t *testing.T) {
	r := depositCmd(t, nil, "man")
	if r.code != 0 || !strings.HasPrefix(r.stdout, ".TH SVCWALLET 1") {
		t.Fatalf("exit %d, stderr %q, starts %.40q", r.code, r.stderr, r.stdout)
	}
	for _, want := range []string{"status", "deposit", "builder", "key", "history", "doctor", "sandbox", "EXIT STATUS", "SVCWALLET_API_KEY",
		// Every command has its whole description and its own flags, not
		// only its summary.
		".SS svcwallet withdraw resume", `Sign and withdraw 25 USDT`, `\fB\-\-max\-fee\fP \fIstring\fP`, `\fB\-\-watch\fP`,
		// A paragraph of the source is one line of roff, filled by man.
		`The environment a command acts in is \-\-env NAME, else $SVCWALLET_ENV, else default_env in the config, else the embedded sandbox`,
		// Every exit status, ctrl+c's too (issue 28 item 14), once, from
		// the help topic.
		`130  interrupted by ctrl+c (131 ctrl+\e, 143 SIGTERM, 129 SIGHUP): at a`,
		// 3 as docs/scripting.md has it: NOT FOUND? and resume's.
		"3    status and withdraw \\-\\-wait: still pending", "NOT FOUND? (the service does not know a withdrawal this",
		"withdraw resume: whether the request arrived cannot be told",
		// The help topics, each a section (issue 35 item 14).
		".SH KEY SOURCES", ".SH ENVIRONMENT", ".SH CHECKS BEFORE SIGNING", ".SH OFFLINE SIGNING",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{`\fB\-\-help`, `\fB\-\-h`, ".PP\n.PP"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
}

// TestExamplesUseEnvironmentsThatExist (issue 21 item 16): an example a
// newcomer copies from any command's help names only the environment every
// machine has, the sandbox.
func TestExamplesUseEnvironmentsThatExist(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		fields := strings.Fields(c.Example)
		for i, f := range fields {
			if f == "--env" && i+1 < len(fields) && fields[i+1] != config.SandboxEnv {
				t.Errorf("%s: an example uses --env %s", c.CommandPath(), fields[i+1])
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newApp(CLIEnv{Getenv: func(string) string { return "" }}).rootCommand())
}

// TestErrorsOnOneLine: an error that names a path with a line break in it
// (a --config, a --password-file) is said on one line, and a password
// file that is not there is said as such, with the flag to check, never as
// a Go error chain ("open …: no such file or directory").
func TestErrorsOnOneLine(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"history", "--config", filepath.Join(dir, "a\nb.toml")}, "svcwallet history: config " + safetext.Shown(filepath.Join(dir, "a\nb.toml")) + " does not exist: "},
		{[]string{"key", "new", "--keystore", dir, "--password-file", filepath.Join(dir, "pass\nword")},
			"svcwallet key new: the password file " + safetext.Shown(filepath.Join(dir, "pass\nword")) + " does not exist: check the path given to --password-file\n"},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code == 0 || !strings.HasPrefix(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "no such file") {
			t.Errorf("%q: exit %d, stderr %q, want it to start %q, on one line", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// TestUnknownFlagShownAsTyped: a flag holding an escape or a letter outside
// ASCII is said with them made visible, never cleaned into the name of a
// flag that exists (--js ESC [31m on as --json), and no flag is suggested
// from it; an unknown command is said so too.
func TestUnknownFlagShownAsTyped(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"status", "q-1", "--js\x1b[31mon"}, "svcwallet status: unknown flag: \"--js\\x1b[31mon\"\n"},
		{[]string{"status", "q-1", "--js\u043en"}, "svcwallet status: unknown flag: \"--js\\u043en\"\n"},
		{[]string{"status", "q-1", "--json\u200b"}, "svcwallet status: unknown flag: \"--json\\u200b\"\n"},
		{[]string{"status", "q-1", "-w\x1b[0m"}, "svcwallet status: unknown shorthand flag in \"-w\\x1b[0m\"\n"},
		{[]string{"env", "l\x1b[0mist"}, "svcwallet env: unknown command \"l\\x1b[0mist\"; the commands are: add, list, remove, use\n"},
		{[]string{"st\u0430tus", "q-1"}, "svcwallet: unknown command \"st\\u0430tus\" for \"svcwallet\"\n"},
		{[]string{"stat\x1b[0mus"}, "svcwallet: unknown command \"stat\\x1b[0mus\" for \"svcwallet\"\n"},
		// A flag of another command after it: the command is said, as
		// cobra says it before any flag is parsed.
		{[]string{"st\u0430tus", "q-1", "--watch"}, "svcwallet: unknown command \"st\\u0430tus\" for \"svcwallet\"\n"},
		// help's own refusal of a topic: "status" with a zero-width space
		// was said as no command "status", beside the status it lists.
		{[]string{"help", "status\u200b"}, "svcwallet help: no command \"status\\u200b\"; the commands are: "},
		{[]string{"help", "st\u0430tus"}, "svcwallet help: no command \"st\\u0430tus\"; the commands are: "},
		{[]string{"history", "--limit", "5\u200b"}, "svcwallet history: --limit: \"5\\u200b\" is not a whole number"},
		{[]string{"history", "--since", "36\u04bb"}, "svcwallet history: --since: \"36\\u04bb\" is not a date"},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
		if strings.Contains(r.stderr, "did you mean") {
			t.Errorf("%q: a flag is guessed from what does not read as typed: %q", tc.args, r.stderr)
		}
	}
}

// TestFlagPrefixOfSeveralSuggestsThemAll: a prefix or a typo that fits
// several flags equally names them all, never one guessed among them.
func TestFlagPrefixOfSeveralSuggestsThemAll(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"withdraw", "--accept"}, "unknown flag: --accept; did you mean --accept-bridge or --accept-loss?\n"},
		{[]string{"withdraw", "--ac"}, "unknown flag: --ac; did you mean --accept-bridge, --accept-loss or --account?\n"},
		{[]string{"withdraw", "--al"}, "unknown flag: --al; did you mean --allow-repeat?\n"},
	} {
		r := depositCmd(t, nil, tc.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
	c := &cobra.Command{Use: "x"}
	c.Flags().Bool("wait", false, "")
	c.Flags().Bool("want", false, "")
	if got := nearestFlags(c, "wat"); len(got) != 2 {
		t.Errorf("wat, a typo from wait and want alike: %q, want both", got)
	}
}

// TestRefusedKeyHalfQuotesNothingOfIt: an argument refused that may be a
// key's half (31 to 33 hex digits) is said by its length alone, whatever
// refuses it: a half each cut after 8 digits, the other given apart too,
// showed 16 of a key's 64.
func TestRefusedKeyHalfQuotesNothingOfIt(t *testing.T) {
	const half = "ac0974bec39a17e36ba4a6b4d238ff94"
	for _, args := range [][]string{
		{"history", "--since", half},
		{"deposit", half},
		{"history", "--limit", "0x" + half},
		{half},
	} {
		r := depositCmd(t, nil, args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "[32 hex digits]") || strings.Contains(r.stdout+r.stderr, half[:4]) {
			t.Errorf("%q: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
}
