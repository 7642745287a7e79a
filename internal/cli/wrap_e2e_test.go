//go:build e2e && unix

package cli

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"github.com/svcwallet/svcwallet/internal/plain"
)

// sixtyColumns is a pseudo-terminal 60 columns wide, and what was shown
// on it so far.
type sixtyColumns struct {
	t         *testing.T
	ptmx, tty *os.File
	mu        sync.Mutex
	shown     bytes.Buffer
	grew      chan struct{}
}

func newSixtyColumns(t *testing.T) *sixtyColumns {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 60}); err != nil {
		t.Fatal(err)
	}
	s := &sixtyColumns{t: t, ptmx: ptmx, tty: tty, grew: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			s.mu.Lock()
			s.shown.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.grew <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { tty.Close(); ptmx.Close() })
	return s
}

// endMark ends what a scene showed: written after it, once shown all it
// wrote before was too.
const endMark = "\x1f-end-\x1f"

// run runs scene with stdout and stderr the terminal, and returns what it
// showed, its lines ended with \n.
func (s *sixtyColumns) run(scene wrapScene) string {
	s.mu.Lock()
	from := s.shown.Len()
	s.mu.Unlock()
	scene.run(s.tty, s.tty)
	if _, err := s.tty.WriteString(endMark); err != nil {
		s.t.Fatal(err)
	}
	for {
		s.mu.Lock()
		shown := s.shown.String()[from:]
		s.mu.Unlock()
		if at := strings.Index(shown, endMark); at >= 0 {
			return ansi.Strip(strings.ReplaceAll(shown[:at], "\r\n", "\n"))
		}
		select {
		case <-s.grew:
		case <-time.After(time.Minute): // a guard: the mark never came
			s.t.Fatalf("%s: the end was never shown:\n%s", scene.name, shown)
		}
	}
}

// command is whether l is a command to run and nothing else, kept whole
// however wide: svcwallet's (a subcommand, then flags, a flag's value,
// and words of an argument's shape: quoted, a path, an id, a placeholder)
// or Foundry's, maybe in backticks or parentheses, ended by its sentence's
// stop. A line that begins with one and goes on in words ("svcwallet auth
// logout --env local forgets it.") is not one, nor is a command's own line
// ("svcwallet status: …"), nor one whose switch (plain.Switches) is
// followed by a word: taken for its value, "--watch follows it." passed.
func command(l string) bool {
	words := strings.Fields(l)
	for i := 1; i < len(words); i++ {
		if strings.HasPrefix(words[i-1], "-") && slices.Contains(plain.Switches, strings.TrimLeft(words[i-1], "-")) && plainWord.MatchString(words[i]) {
			return false
		}
	}
	return commandShape.MatchString(l)
}

// plainWord is a word of a sentence, not an argument's.
var plainWord = regexp.MustCompile(`^[a-z]+$`)

// commandShape is a command's words, a flag's value any word.
var commandShape = regexp.MustCompile("^ *[`(]?(svcwallet|cast wallet) [a-z]+( [a-z]+)?" +
	`( -[^ ]*( [a-z]+)?| '[^']*'| "[^"]*"| [^ ]*[-/.:=_0-9~$…'"A-Z<>|*][^ ]*)*` + "[`),.;:]?$")

// TestSixtyColumnsWrapped: on a terminal 60 columns wide every line the
// scenes write is within 60 cells, but a word wider alone (a hash, a
// path), a command to run kept whole, and a table's row (history's,
// key list's), each as it is off a terminal; the words are the same as
// piped, none split; a row's value that wraps continues under its value.
func TestSixtyColumnsWrapped(t *testing.T) {
	// Each scene is run piped, then on the terminal by scenes of their own
	// (a sandbox, a journal, a keystore), as the first runs leave what the
	// second would say (an identical withdrawal made).
	type run struct{ stdout, stderr string }
	var runs []run
	for _, scene := range wrapScenes(t) {
		_, stdout, stderr := piped(t, scene)
		runs = append(runs, run{stdout, stderr})
	}
	term := newSixtyColumns(t)
	for i, scene := range wrapScenes(t) {
		t.Run(scene.name, func(t *testing.T) {
			stdout, stderr := runs[i].stdout, runs[i].stderr
			shown := term.run(scene)
			t.Logf("at 60 columns:\n%s", shown)
			var table []string // rows of a table: never wrapped
			if strings.HasPrefix(scene.name, "history") || strings.HasPrefix(scene.name, "key list") {
				table = slices.DeleteFunc(strings.Split(maskRun(stdout), "\n"), func(l string) bool { return strings.HasPrefix(l, "Builder API") })
			}
			lines := strings.Split(shown, "\n")
			for _, l := range lines {
				if ansi.StringWidth(l) > 60 && strings.Contains(strings.TrimSpace(l), " ") && !command(l) && !slices.Contains(table, maskRun(l)) {
					t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
				}
			}
			for _, row := range table {
				if !slices.Contains(strings.Split(maskRun(shown), "\n"), row) {
					t.Errorf("a table's row was wrapped: %q", row)
				}
			}
			words := func(s string) []string { w := strings.Fields(maskRun(s)); slices.Sort(w); return w }
			if got, want := words(shown), words(stdout+stderr); !slices.Equal(got, want) {
				t.Errorf("words split or lost: %q, not %q", missing(got, want), missing(want, got))
			}
			if hung, ok := hangs[scene.name]; ok && !hung.MatchString(shown) {
				t.Errorf("no value continued under its column (%s)", hung)
			}
		})
	}
}

// missing are the words of a not in b.
func missing(a, b []string) []string {
	var out []string
	for _, w := range a {
		if i := slices.Index(b, w); i >= 0 {
			b = slices.Delete(slices.Clone(b), i, i+1)
		} else {
			out = append(out, w)
		}
	}
	return out
}

// hangs is, for a scene whose rows wrap at 60 columns, a row's value
// continued under the value's column: in a review, after the label's 16
// cells; in status's record, after its 12.
var hangs = map[string]*regexp.Regexp{
	"withdraw --yes":            regexp.MustCompile(`\n  Domain {11}name "Service Exchange" · version "0" ·\n {19}chainId 327\n`),
	"withdraw --signer offline": regexp.MustCompile(`\n  You lose {9}1\.5 USDT, 6% of the amount  pay −\n {19}receive, the fee included\n`),
	"status ID":                 regexp.MustCompile(`\nMeaning {6}Funds debited from the funding account; the\n {13}bridge is processing the withdrawal\.\n`),
	"status ID --watch":         regexp.MustCompile(`(?m)^[0-9TZ:-]{20}  SUBMITTED\n {22}q-[a-z0-9]{26}\n`),
}

// TestOnlyACommandMayBeWider: TestSixtyColumnsWrapped lets a line wider
// than the terminal through only when it is a command to run and nothing
// else; one that begins with a command and goes on in the sentence's
// words was let through too, its words never wrapped.
func TestOnlyACommandMayBeWider(t *testing.T) {
	for _, l := range []string{
		"svcwallet status q-el3736ed2yia3az3z7a7o3aiyk --env rig --watch",
		"  svcwallet withdraw submit '/tmp/my files/transfer.json' --signature 0x… --env local --config /tmp/c.toml",
		"cast wallet sign --data --from-file '/tmp/my files/transfer.json'",
		"(svcwallet auth login --env 'my env'),",
		"`svcwallet sandbox --listen 127.0.0.1:8545`",
		"svcwallet history --env local --config /tmp/x/config.toml",
	} {
		if !command(l) {
			t.Errorf("a command not let through: %q", l)
		}
	}
	for _, l := range []string{
		"svcwallet auth logout --env local --config /tmp/x/config.toml forgets it.",
		"svcwallet sandbox and name it with env add (docs/sandbox.md)",
		"svcwallet status: the journal could not record COMPLETED of q-el3736ed2yia3az3z7a7o3aiyk",
		"svcwallet history --env local --config /tmp/x/config.toml may show it unfinished; check the disk",
		"svcwallet status q-el3736ed2yia3az3z7a7o3aiyk --watch follows it.",
	} {
		if command(l) {
			t.Errorf("words after a command let through: %q", l)
		}
	}
}
