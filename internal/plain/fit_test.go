package plain

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// longQuestion is a question wider than 60 columns, an address in it.
const longQuestion = "Destination address on ARBITRUM (0x and 40 hex digits; such as 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC; back for home): "

// TestQuestionFitsSixtyColumns: a question wider than a 60-column terminal
// is wrapped at spaces, each line narrower than 60 (the last keeps a cell
// for the answer), no word split, the address whole on its line, and the
// space the answer follows kept at its end; one that fits is as it was.
func TestQuestionFitsSixtyColumns(t *testing.T) {
	got := fitTo(longQuestion, 60)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 {
		t.Fatalf("not wrapped: %q", got)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 59 {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
	if strings.Join(lines, " ") != longQuestion || !strings.HasSuffix(got, "): ") {
		t.Errorf("words split or lost: %q", got)
	}
	if short := "Amount of USDT to pay: "; fitTo(short, 60) != short {
		t.Errorf("a question that fits became %q", fitTo(short, 60))
	}
}

// TestQuestionNotWrappedOffATerminal: written to a pipe or a buffer, a
// question stays one line, whatever its width, for its reader to wrap.
func TestQuestionNotWrappedOffATerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := Fit(w, longQuestion); got != longQuestion {
		t.Errorf("to a pipe: %q", got)
	}
	if got := Fit(&bytes.Buffer{}, longQuestion); got != longQuestion {
		t.Errorf("to a buffer: %q", got)
	}
}

// TestQuestionAsWideAsTheTerminal: a question whose line, with the space
// the answer follows, is exactly as wide as the terminal is wrapped too:
// written whole it filled the last column, and the answer's first key
// went to the next line. A word wider than the terminal (a digest) stands
// alone on its line.
func TestQuestionAsWideAsTheTerminal(t *testing.T) {
	address := "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"
	digest := "0x" + strings.Repeat("ab", 32)
	for _, q := range []string{
		"Paying " + address + " ok? [y/n] ",  // 60 cells, its space the last
		"Paying " + address + " now? [y/n] ", // 61 cells
		"Sign the digest " + digest + "? [y/n] ",
	} {
		got := fitTo(q, 60)
		lines := strings.Split(got, "\n")
		for _, l := range lines {
			if ansi.StringWidth(l) > 59 && !strings.Contains(l, digest) {
				t.Errorf("%q: a line of %d cells: %q", q, ansi.StringWidth(l), l)
			}
		}
		if last := lines[len(lines)-1]; ansi.StringWidth(last) > 59 {
			t.Errorf("%q: no cell left for the answer: %q", q, last)
		}
		if strings.Join(lines, " ") != q || !strings.HasSuffix(got, "] ") {
			t.Errorf("words split or lost: %q", got)
		}
	}
}

// TestQuestionLeavesRoomForTheAnswer: a question within a dozen cells of
// a 60-column terminal's edge is broken before its last word, so a short
// answer ("25") is typed on one line, not "2" at the edge and "5" below;
// a choice's title, taking no answer, is left as it fits.
func TestQuestionLeavesRoomForTheAnswer(t *testing.T) {
	const q = "Amount of USDT to pay (such as 25 or 25.5; back for home): "
	got := fitTo(q, 60)
	lines := strings.Split(got, "\n")
	if last := lines[len(lines)-1]; 60-ansi.StringWidth(last) < answerRoom {
		t.Errorf("%d cells left for the answer: %q", 60-ansi.StringWidth(last), got)
	}
	if strings.Join(lines, " ") != q || ansi.StringWidth(lines[0]) > 59 {
		t.Errorf("words split, lost or off the terminal: %q", got)
	}
	if title := strings.TrimSuffix(q, " "); fitTo(title, 60) != title {
		t.Errorf("a title that fits became %q", fitTo(title, 60))
	}
}

// TestFitKeepsRunsOfSpaces: a line that needs no wrap keeps its runs of
// spaces (a review's aligned columns) though another line of the text is
// wrapped, and a wrapped one keeps its own but at the break.
func TestFitKeepsRunsOfSpaces(t *testing.T) {
	const aligned = "  Amount      25 USDT"
	const long = "  Destination  0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC  the payee"
	got := fitTo(aligned+"\n"+long, 60)
	if want := aligned + "\n  Destination  0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC\n  the payee"; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFittedWrapsEachLine: the command line's lines written through Fitted
// on a terminal are each wrapped at spaces to its width, a command to run
// in them whole, on a line of its own where it does not fit beside the
// words before it, the words after a quoted one wrapped too (the label
// "svcwallet withdraw: " that begins a command's own line names none),
// the runs of spaces of a row kept, and the write counted whole; to a pipe or a buffer Fitted is the stream itself,
// so a script reads the bytes as written.
func TestFittedWrapsEachLine(t *testing.T) {
	const accepted = "Withdrawal accepted (SUBMITTED): 24.5 USDT on its way to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC on ARBITRUM\n"
	const row = "  Fee              0.5 USDT\n"
	const follow = "Follow it: svcwallet status q-el3736ed2yia3az3z7a7o3aiyk --env rig --watch\n"
	const warned = "svcwallet withdraw: warning: more than 5% of the amount goes to fees\n"
	const quoted = "For one that lasts, run `svcwallet sandbox --listen 127.0.0.1:8545` and point an environment of the config at it.\n"
	var out bytes.Buffer
	n, err := fitWriter{out: &out, cols: sixty}.Write([]byte(accepted + row + follow + warned + quoted))
	if n != len(accepted+row+follow+warned+quoted) || err != nil {
		t.Fatalf("wrote %d, %v", n, err)
	}
	want := "Withdrawal accepted (SUBMITTED): 24.5 USDT on its way to\n0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC on ARBITRUM\n" + row +
		"Follow it:\n" + strings.TrimPrefix(follow, "Follow it: ") +
		"svcwallet withdraw: warning: more than 5% of the amount\ngoes to fees\n" +
		"For one that lasts, run\n`svcwallet sandbox --listen 127.0.0.1:8545` and point an\nenvironment of the config at it.\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	var buf bytes.Buffer
	if Fitted(w) != io.Writer(w) || Fitted(&buf) != io.Writer(&buf) {
		t.Error("off a terminal Fitted is not the stream itself")
	}
}

// TestRowHangsItsValue: through Fitted a row whose value wraps continues
// under the value's column, not at the row's indent, where it read as a
// row of its own; a word too wide for that column (an address at 60
// columns) sends the row to a line's fit, the word whole; off a terminal
// (a buffer) the row is as given, its spaces too.
func TestRowHangsItsValue(t *testing.T) {
	const head = "  You lose         "
	const value = "1.5 USDT, 6% of the amount  pay − receive, the fee included"
	var out bytes.Buffer
	if err := Row(fitWriter{out: &out, cols: sixty}, head, value); err != nil {
		t.Fatal(err)
	}
	if want := head + "1.5 USDT, 6% of the amount  pay −\n" + strings.Repeat(" ", len(head)) + "receive, the fee included\n"; out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	Row(fitWriter{out: &out, cols: sixty}, "    toAccount      ", "0x6e3a360d75Dd3E83948f7977b92b21827a89E012  bridge funding address")
	if want := "    toAccount\n    0x6e3a360d75Dd3E83948f7977b92b21827a89E012  bridge\n    funding address\n"; out.String() != want {
		t.Errorf("a word wider than the column: got\n%s\nwant\n%s", out.String(), want)
	}
	out.Reset()
	Row(&out, head, value+" ")
	if out.String() != head+value+" \n" {
		t.Errorf("off a terminal: %q", out.String())
	}
}

// TestCommandEndsWithItsStep: a command named mid-sentence ends at the
// ")", ";" or ", " after it, so the words after it wrap (glued to the
// line's end, "(svcwallet auth login), then run …" was one word wider
// than the terminal); a quoted word of it keeps its own; "svcwallet" before
// a word that names no command is a sentence's, wrapped as any.
func TestCommandEndsWithItsStep(t *testing.T) {
	const said = "svcwallet history: log in as that account (svcwallet auth login --env 'my env'), then run svcwallet history --refresh --env x, which asks again\n"
	const prose = "If the quote expires while you approve, svcwallet gets a fresh quote for exactly 25 USDT\n"
	var out bytes.Buffer
	fitWriter{out: &out, cols: sixty}.Write([]byte(said + prose))
	want := "svcwallet history: log in as that account\n(svcwallet auth login --env 'my env'), then run\nsvcwallet history --refresh --env x, which asks again\n" +
		"If the quote expires while you approve, svcwallet gets a\nfresh quote for exactly 25 USDT\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestQuotedWordKeptWhole: a word quoted for the shell (a path with a
// space, after --signer) and a TOML string after "= " are kept whole, as
// a command is: broken at the space, the path copied named another file.
func TestQuotedWordKeptWhole(t *testing.T) {
	const path = "/home/ann/my keys/UTC--2026-12-02--61cc1a7b50b5"
	said := "To sign with it: --signer '" + path + "' on a command, or signer = \"" + path + "\" in its environment's table of the config.\n"
	var out bytes.Buffer
	fitWriter{out: &out, cols: sixty}.Write([]byte(said))
	for _, whole := range []string{"'" + path + "'", `"` + path + `"`} {
		if !strings.Contains(out.String(), whole) {
			t.Errorf("%s broken:\n%s", whole, out.String())
		}
	}
	for _, l := range strings.Split(out.String(), "\n") {
		if len(l) > 60 {
			t.Errorf("a line of %d cells: %q", len(l), l)
		}
	}
}

// TestCommandEndsWithItsArguments: a command named in a sentence ends
// where its arguments end (a subcommand, flags and their values, ids,
// paths, quoted words, a pipe's operand), so the words after it wrap as
// the sentence's; glued to its step's end, "svcwallet sandbox and name it
// with env add" was one unbreakable word. A "svcwallet" before a word
// that names no command is a sentence's.
func TestCommandEndsWithItsArguments(t *testing.T) {
	for _, c := range []struct{ command, after string }{
		{"svcwallet sandbox", " and name it with env add (docs/sandbox.md)"},
		{"svcwallet status", " does. A withdrawal is taken up"},
		{"svcwallet key list", " shows it"},
		{"svcwallet auth login", " kept for the environment"},
		{"svcwallet auth login --env local", " again to keep"},
		{"svcwallet auth login --env 'my env'", "), then run"},
		{"svcwallet env add local --base-url http://127.0.0.1:8700 --chain-id 327", " and the config names it"},
		{"svcwallet env remove local --config '/my cfg/c.toml'", " first"},
		{"svcwallet status q-123 q-456 --watch --json", " prints a line a change"},
		{"svcwallet status ID --watch", " follows it"},
		{"svcwallet history -n 10", " lists the newest"},
		{"svcwallet doctor --env prod --config '/my cfg/c.toml'", " for the command that"},
		{`svcwallet withdraw submit 'it'\''s.json' --signature 0x… --env local`, ""},
		{"svcwallet withdraw resume", " or svcwallet status --watch"},
		{"svcwallet deposit generate SOLANA", " makes one"},
		{"svcwallet help keys.", " The environment: svcwallet help environments."},
		{"svcwallet status - < quote-ids.txt", " reads them"},
		{"svcwallet man | man -l -", ""},
		{"svcwallet status q-123 2>&1", " shows both streams"},
		{"svcwallet env use local", " && svcwallet auth login"},
		{"svcwallet sandbox", " & then env add"},
		{"svcwallet status ID", " . then"},
		{"svcwallet completion zsh > \"${fpath[1]}/_svcwallet\"", " once"},
		{"cast wallet sign --data --from-file /tmp/x.json", ", then submit"},
	} {
		if got := commandEnd(c.command + c.after); got != len(c.command) {
			t.Errorf("%q: the command is %q", c.command+c.after, (c.command + c.after)[:got])
		}
	}
	if prose := "If the quote expires, svcwallet gets a fresh quote for you"; glued(prose) != prose {
		t.Errorf("a sentence read as a command: %q", glued(prose))
	}
}

// TestPathRowKeptWhole: through Fitted a row's path with a space (a
// keystore folder "my keys") is kept whole, where the value names it
// (first, or in its note: the offline Signer's "from offline signing: the
// file …"), the words around it wrapped; broken at its space, the halves
// copied named no file. Off a terminal the row is as given.
func TestPathRowKeptWhole(t *testing.T) {
	const head = "  File             "
	for _, c := range []struct{ value, path string }{
		{"/home/ann/my keys/withdrawal-q-el3736ed2yia3az3z7a7o3.json  eth_signTypedData_v4 JSON, readable by you only", "/home/ann/my keys/withdrawal-q-el3736ed2yia3az3z7a7o3.json"},
		{"/home/ann/my keys/transfer.json  eth_signTypedData_v4 JSON, readable by you only", "/home/ann/my keys/transfer.json"},
		{"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  from offline signing: the file /home/ann/Documents/my files/transfer.json", "/home/ann/Documents/my files/transfer.json"},
	} {
		var out bytes.Buffer
		if err := PathRow(fitWriter{out: &out, cols: sixty}, head, c.value, c.path); err != nil {
			t.Fatal(err)
		}
		t.Logf("at 60 columns:\n%s", out.String())
		if !strings.Contains(out.String(), c.path) {
			t.Errorf("the path broken:\n%s", out.String())
		}
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if ansi.StringWidth(l) > 60 && !strings.Contains(l, c.path) {
				t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
			}
		}
		out.Reset()
		PathRow(&out, head, c.value, c.path)
		if out.String() != head+c.value+"\n" {
			t.Errorf("off a terminal: %q", out.String())
		}
	}
}

// sixty is a terminal 60 columns wide.
func sixty() int { return 60 }

// TestFittedFollowsTheWidth: each write is fit to the width its terminal
// has then, not the one it had when the writer was made: a terminal
// resized while status --watch runs has its next lines fit to it.
func TestFittedFollowsTheWidth(t *testing.T) {
	const line = "Withdrawal q-ugfdocdemmbg4sulegf5gzdzcy is SENDING: the bridge pays out on ARBITRUM.\n"
	var out strings.Builder
	cols := 100
	w := fitWriter{out: &out, cols: func() int { return cols }}
	for _, c := range []int{100, 60} {
		cols = c
		out.Reset()
		w.Write([]byte(line))
		for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if ansi.StringWidth(l) >= c {
				t.Errorf("at %d columns a line of %d cells: %q", c, ansi.StringWidth(l), l)
			}
		}
		if wrapped := strings.Count(out.String(), "\n") > 1; wrapped != (c < 100) {
			t.Errorf("at %d columns wrapped %v: %q", c, wrapped, out.String())
		}
	}
}
