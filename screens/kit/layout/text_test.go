package layout_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/theme"
	"github.com/svcwallet/svcwallet/tui"
)

func common() *tui.Common { return &tui.Common{Styles: theme.New(true)} }

// widest is the display width of the widest line of s, escapes aside.
func widest(s string) int {
	w := 0
	for _, l := range strings.Split(s, "\n") {
		w = max(w, ansi.StringWidth(l))
	}
	return w
}

// TestClip: no line is drawn past the edge, and a cut one says so with …;
// lines that fit are untouched, a final newline is dropped, and width is
// measured without escapes.
func TestClip(t *testing.T) {
	red := common().Styles.Danger.Render("0123456789")
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"short\nlonger line here\n", 10, "short\nlonger li…"},
		{"exactly10!", 10, "exactly10!"},
		{"界界界界界界", 7, "界界界…"},
		{red, 10, red},
		{"anything", 0, ""},
	} {
		got := layout.Clip(tc.in, tc.w)
		if ansi.Strip(got) != ansi.Strip(tc.want) {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.w, ansi.Strip(got), ansi.Strip(tc.want))
		}
		if tc.w > 0 && widest(got) > tc.w {
			t.Errorf("Clip(%q, %d) draws %d cells", tc.in, tc.w, widest(got))
		}
	}
	if got := layout.Clip(red+"and more", 10); ansi.StringWidth(got) != 10 || !strings.HasSuffix(ansi.Strip(got), "…") {
		t.Errorf("a coloured line too wide: %q", ansi.Strip(got))
	}
}

// TestPadAndField: a label is padded to its column by display width, wide
// characters counted as two cells, and never cut.
func TestPadAndField(t *testing.T) {
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{{"ab", 4, "ab  "}, {"界", 4, "界  "}, {"toolong", 4, "toolong"}, {"", 2, "  "}} {
		if got := layout.Pad(tc.s, tc.w); got != tc.want {
			t.Errorf("Pad(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
	}
	if got := ansi.Strip(layout.Field(common(), "Chain", 8, "ARBITRUM")); got != "Chain    ARBITRUM" {
		t.Errorf("Field: %q", got)
	}
	if layout.Uitoa(18446744073709551615) != "18446744073709551615" {
		t.Error("Uitoa loses digits")
	}
}

// TestErrorBlock: an explanation is read whole: wrapped to the width, its
// lines under the text after the label, or under the label when too
// narrow to indent; no error, no block.
func TestErrorBlock(t *testing.T) {
	c := common()
	if layout.ErrorBlock(c, "Error", nil, 40) != "" {
		t.Error("a block without an error")
	}
	err := errors.New("the service refused the quote because the amount is below the route's minimum of 10 USDT")
	got := ansi.Strip(layout.ErrorBlock(c, "Quote refused", err, 50))
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "Quote refused: the service") {
		t.Fatalf("not wrapped after the label:\n%s", got)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, strings.Repeat(" ", len("Quote refused: "))) || strings.HasSuffix(l, " ") {
			t.Errorf("a line not indented under the text, or with trailing blanks: %q", l)
		}
	}
	if widest(got) > 50 || !strings.Contains(strings.Join(strings.Fields(got), " "), "minimum of 10 USDT") {
		t.Errorf("cut or too wide:\n%s", got)
	}
	narrow := ansi.Strip(layout.ErrorBlock(c, "Quote refused", err, 30))
	if first, rest, _ := strings.Cut(narrow, "\n"); first != "Quote refused: " || strings.HasPrefix(rest, " ") || widest(narrow) > 30 {
		t.Errorf("too narrow to indent, the text is not wrapped under the label:\n%s", narrow)
	}
}

// TestMarkDiff: the characters that differ are marked, and only those; 0x
// hex compares without case (the checksum's), base58 with it; lengths may
// differ. DiffCarets puts a ^ under each, for a terminal without reverse
// video.
func TestMarkDiff(t *testing.T) {
	mark := common().Styles.Warning.Reverse(true)
	for _, tc := range []struct {
		a, b, carets string
	}{
		{"0x3C44CdDd", "0x3c44cddE", "         ^"},
		{"7xKXtg2C", "7xkXtg2D", "  ^    ^"},
		{"0xabc", "0xabcde", "     ^^"},
		{"0xGhI", "0xghi", "  ^ ^"}, // not hex: case counts
		{"0x", "0X", " ^"},
		{"same", "same", ""},
	} {
		if got := layout.DiffCarets(tc.a, tc.b); got != tc.carets {
			t.Errorf("DiffCarets(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.carets)
		}
		ma, mb := layout.MarkDiff(mark, tc.a, tc.b)
		if ansi.Strip(ma) != tc.a || ansi.Strip(mb) != tc.b {
			t.Errorf("MarkDiff changed the text: %q %q", ansi.Strip(ma), ansi.Strip(mb))
		}
		if marked := ma != tc.a || mb != tc.b; marked != (tc.carets != "") {
			t.Errorf("MarkDiff(%q, %q) marked %v", tc.a, tc.b, marked)
		}
	}
	ma, _ := layout.MarkDiff(mark, "0xAB1", "0xab2")
	if want := "0xAB" + mark.Render("1"); ma != want {
		t.Errorf("hex case marked: %q, want %q", ma, want)
	}
}

// TestWords: characters grouped for reading aloud, a dash for nothing,
// wrapping and indenting.
func TestWords(t *testing.T) {
	if got := layout.GroupChars("0x3C44CdDdB6a9", 4); got != "0x3C44 CdDd B6a9" {
		t.Errorf("GroupChars: %q", got)
	}
	if got := layout.GroupChars("abcdefg", 3); got != "abc def g" {
		t.Errorf("GroupChars: %q", got)
	}
	if layout.OrDash("") != "—" || layout.OrDash("x") != "x" {
		t.Error("OrDash")
	}
	if got := layout.Indent([]string{"a", "b"}, 2); got != "  a\n  b\n" {
		t.Errorf("Indent: %q", got)
	}
	if got := layout.WrapTo("one two three four", 9); got != "one two\nthree\nfour" {
		t.Errorf("WrapTo: %q", got)
	}
	if got := layout.WrapTo("one two", 0); got != "one two" {
		t.Errorf("WrapTo without a width: %q", got)
	}
}

// TestWrapField: a field is one line when it fits; else its note goes
// under the value, then the value under its label, then a value too wide
// even so is broken into pieces, never cut.
func TestWrapField(t *testing.T) {
	c := common()
	digest := "0x" + strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name, value, note string
		width, lines      int
	}{
		{"fits", "25 USDT", "from the funding account", 80, 1},
		{"note under", "25 USDT", "from the funding account", 30, 2},
		{"value under its label", digest, "", 70, 2},
		{"value broken into pieces", digest, "", 40, 3},
		{"no width", digest, "a note", 0, 1},
	} {
		got := ansi.Strip(layout.WrapField(c, "Digest", 10, tc.value, tc.note, tc.width))
		lines := strings.Split(got, "\n")
		if len(lines) < tc.lines || tc.lines == 1 && len(lines) != 1 {
			t.Errorf("%s: %d lines, want %d:\n%s", tc.name, len(lines), tc.lines, got)
		}
		if tc.width > 0 && widest(got) > tc.width {
			t.Errorf("%s: %d cells wide, the width is %d:\n%s", tc.name, widest(got), tc.width, got)
		}
		if joined := strings.Join(strings.Fields(got), ""); !strings.Contains(joined, strings.ReplaceAll(tc.value, " ", "")) ||
			!strings.Contains(joined, strings.ReplaceAll(tc.note, " ", "")) {
			t.Errorf("%s: the value or its note was cut:\n%s", tc.name, got)
		}
	}
}

// TestWrapFieldNoteInItsColumn: a note wrapped under its value starts
// every line two in from the value's column, as its first line does.
func TestWrapFieldNoteInItsColumn(t *testing.T) {
	got := ansi.Strip(layout.WrapField(common(), "You lose", 16, "1.5 USDT, 6% of the amount",
		"the fee; the bridge converts the remaining 23.5 USDT to 23.5047 USDC", 80))
	lines := strings.Split(got, "\n")
	if len(lines) < 3 {
		t.Fatalf("the note fits on one line under its value:\n%s", got)
	}
	for _, l := range lines[1:] {
		if len(l)-len(strings.TrimLeft(l, " ")) != 19 {
			t.Errorf("a line of the note is not two in from the value's column (19):\n%s", got)
		}
	}
}

// TestWrapFieldValueUnderAnIndentedLabel: a value put on a line of its
// own under a message field's label (indented two) starts two in from the
// label's text, not level with it, so it reads as that field's value.
func TestWrapFieldValueUnderAnIndentedLabel(t *testing.T) {
	const addr = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
	got := ansi.Strip(layout.WrapField(common(), "  builderAccountID", 18, addr, "", 60))
	if want := "  builderAccountID\n    " + addr; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = ansi.Strip(layout.WrapField(common(), "Digest", 10, addr, "", 44))
	if want := "Digest\n  " + addr; got != want {
		t.Errorf("an unindented label: got\n%s\nwant\n%s", got, want)
	}
}

// TestWrapFieldKeepsIDsWhole: a note wrapped under its value breaks at
// spaces, never after a quote id's hyphen, so the id is read whole.
func TestWrapFieldKeepsIDsWhole(t *testing.T) {
	const id = "q-el3736ed2yia3az3z7a7o3aiyk"
	for w := 41; w <= 70; w++ { // the note's column holds the id whole
		got := ansi.Strip(layout.WrapField(common(), "Receive", 10, "23.5 USDT", "the withdrawal followed as quote "+id, w))
		if !strings.Contains(got, id) {
			t.Errorf("at %d columns the quote id is broken:\n%s", w, got)
		}
	}
}

// TestChoiceAndFocus: a choice and the focus show by a character, so they
// are seen without colour.
func TestChoiceAndFocus(t *testing.T) {
	c := common()
	if got := ansi.Strip(layout.Choice(c, "API key", true)); got != "(•) API key" {
		t.Errorf("chosen: %q", got)
	}
	if got := ansi.Strip(layout.Choice(c, "Wallet", false)); got != "( ) Wallet" {
		t.Errorf("not chosen: %q", got)
	}
	if ansi.Strip(layout.Focus(c, true)) != "› " || layout.Focus(c, false) != "  " {
		t.Error("the focus gutter")
	}
}

// TestFitted: the fullest level that fits the height, else the shortest
// and false.
func TestFitted(t *testing.T) {
	render := func(level int) string { return strings.Repeat("line\n", 4-level) + "end" } // 5, 4, 3 lines
	for _, c := range []struct {
		h, want int
		ok      bool
	}{{5, 0, true}, {4, 1, true}, {3, 2, true}, {2, 2, false}} {
		out, ok := layout.Fitted(3, c.h, render)
		if out != render(c.want) || ok != c.ok {
			t.Errorf("h=%d: %d lines, %v; want level %d, %v", c.h, strings.Count(out, "\n")+1, ok, c.want, c.ok)
		}
	}
}
