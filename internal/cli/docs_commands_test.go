package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// The commands the README and docs/ print for a reader to run, in a
// fenced block or a code span, are held to the command tree: each names a
// command there, and each flag it gives is one that command takes. A
// reader who copies one meets no "unknown command" or "unknown flag".

var (
	docFence = regexp.MustCompile("(?ms)^```sh\\n(.*?)^```")
	anyFence = regexp.MustCompile("(?ms)^```.*?^```")
	docSpan  = regexp.MustCompile("`(svcwallet [^`\\n]+)`")
	envWord  = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*=`)
	// placeholder is a word the reader replaces: ID, SHELL, CMD, or …
	placeholder = regexp.MustCompile(`^([A-Z][A-Z_]*(\.\.\.)?|…|\.\.\.)$`)
)

// docCommands are the svcwallet commands in a page's text, each as its
// words, with the line it is on.
func docCommands(text string) (cmds [][]string, lines []string) {
	var pieces []string
	for _, m := range docFence.FindAllStringSubmatch(text, -1) {
		pieces = append(pieces, strings.Split(strings.ReplaceAll(m[1], "\\\n", " "), "\n")...)
	}
	outside := anyFence.ReplaceAllString(text, "")
	for _, m := range docSpan.FindAllStringSubmatch(outside, -1) {
		pieces = append(pieces, strings.ReplaceAll(m[1], "\\|", "|")) // a table's escaped pipe
	}
	for _, line := range pieces {
		for _, segment := range regexp.MustCompile(`\|\||&&|[|;<>]`).Split(line, -1) {
			words := shellWords(segment)
			for len(words) > 0 && (envWord.MatchString(words[0]) || words[0] == "$") {
				words = words[1:]
			}
			if len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == "." {
				words = append([]string{"svcwallet"}, words[3:]...) // run from a clone
			}
			// svcwallet's own output quoted in prose ("svcwallet status: …")
			// is not a command.
			if len(words) < 1 || words[0] != "svcwallet" || len(words) > 1 && strings.HasSuffix(words[1], ":") {
				continue
			}
			cmds, lines = append(cmds, words[1:]), append(lines, strings.TrimSpace(line))
		}
	}
	return cmds, lines
}

// shellWords splits a line as sh would for these purposes: quotes group,
// a # that starts a word starts a comment.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, started := rune(0), false
	for _, r := range s {
		switch {
		case in != 0 && r == in:
			in = 0
		case in != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			in, started = r, true
		case r == ' ' || r == '\t':
			if started {
				words, cur, started = append(words, cur.String()), strings.Builder{}, false
			}
		case r == '#' && !started:
			return words
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		words = append(words, cur.String())
	}
	return words
}

// docCommandError says what is wrong with a command as printed, "" when
// the command tree takes it.
func docCommandError(root *cobra.Command, args []string) string {
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err.Error()
	}
	if len(rest) == 0 {
		return "" // the command named in prose, or run bare
	}
	var positional []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			positional = append(positional, rest[i+1:]...)
			i = len(rest)
		case strings.HasPrefix(a, "[") || strings.HasSuffix(a, "]"):
			// a synopsis's optional part: [flags], [--all], [--auth-url URL]
		case a == "-" || !strings.HasPrefix(a, "-"):
			positional = append(positional, a)
		default:
			name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			f := cmd.Flags().Lookup(name)
			if f == nil {
				f = cmd.InheritedFlags().Lookup(name)
			}
			if f == nil && !strings.HasPrefix(a, "--") && len(name) == 1 {
				f = cmd.Flags().ShorthandLookup(name)
			}
			if f == nil && name != "help" && name != "h" { // cobra adds --help as it runs
				return cmd.CommandPath() + " has no flag " + a
			}
			if f != nil && !hasValue && f.NoOptDefVal == "" {
				i++ // its value
			}
		}
	}
	if cmd.HasAvailableSubCommands() && len(positional) > 0 && placeholder.MatchString(positional[0]) {
		return "" // a placeholder where a subcommand goes: completion SHELL
	}
	if err := cmd.ValidateArgs(positional); err != nil {
		return err.Error()
	}
	return ""
}

func TestDocsCommandsRunAsPrinted(t *testing.T) {
	root := newApp(CLIEnv{Getenv: func(string) string { return "" }}).rootCommand()
	root.InitDefaultHelpCmd()
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append(pages, "../../README.md", "../../CONTRIBUTING.md", "../../SECURITY.md")
	checked := 0
	for _, page := range pages {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		cmds, lines := docCommands(string(b))
		for i, args := range cmds {
			checked++
			if why := docCommandError(root, args); why != "" {
				t.Errorf("%s: %q: %s", filepath.Base(page), lines[i], why)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d commands in the docs: are the pages found?", checked)
	}
}
