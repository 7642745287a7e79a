package layout

import (
	"cmp"
	"strings"
	"unicode"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/tui"

	"charm.land/lipgloss/v2"
)

// MarkDiff renders a and b with the characters that differ between them
// marked, so two look-alike addresses can be compared at a glance. Case
// differences count in base58, where they make another address; between two
// 0x-hex (EVM) addresses they do not, since hex is case-insensitive and the
// mixed case is only a checksum, so marking it would bury the real difference.
func MarkDiff(mark lipgloss.Style, a, b string) (string, string) {
	ra, rb := []rune(a), []rune(b)
	differs := diffAt(a, b)
	var sa, sb strings.Builder
	for i, d := range differs {
		for _, p := range []struct {
			sb *strings.Builder
			r  []rune
		}{{&sa, ra}, {&sb, rb}} {
			switch {
			case i >= len(p.r):
			case !d:
				p.sb.WriteRune(p.r[i])
			default:
				p.sb.WriteString(mark.Render(string(p.r[i])))
			}
		}
	}
	return sa.String(), sb.String()
}

// DiffCarets is a line with ^ under each character MarkDiff marks, so the
// difference shows where reverse video does not (TERM=dumb); "" when none
// differs.
func DiffCarets(a, b string) string {
	var out strings.Builder
	for _, d := range diffAt(a, b) {
		if d {
			out.WriteByte('^')
		} else {
			out.WriteByte(' ')
		}
	}
	return strings.TrimRight(out.String(), " ")
}

// diffAt says, for each character position of the longer of a and b,
// whether the two differ there (MarkDiff's rule).
func diffAt(a, b string) []bool {
	ra, rb := []rune(a), []rune(b)
	fold := isHex0x(a) && isHex0x(b)
	out := make([]bool, max(len(ra), len(rb)))
	for i := range out {
		ca, cb := rune(0), rune(0)
		if i < len(ra) {
			ca = ra[i]
		}
		if i < len(rb) {
			cb = rb[i]
		}
		out[i] = ca != cb && (!fold || unicode.ToLower(ca) != unicode.ToLower(cb))
	}
	return out
}

// isHex0x reports whether s is "0x" followed by hex digits only.
func isHex0x(s string) bool {
	h, ok := strings.CutPrefix(s, "0x")
	return ok && h != "" && safetext.HexDigits(h, len(h))
}

// GroupChars splits s into groups of n characters for reading aloud or
// comparing: "0x3C44 CdDd B6a9 …". A 0x prefix stays with the first group.
func GroupChars(s string, n int) string {
	prefix := ""
	if strings.HasPrefix(s, "0x") {
		prefix, s = "0x", s[2:]
	}
	var groups []string
	for len(s) > n {
		groups = append(groups, s[:n])
		s = s[n:]
	}
	groups = append(groups, s)
	return prefix + strings.Join(groups, " ")
}

// WrapField renders "label value note" on one line when it fits in width,
// otherwise puts the value (and then the note) on lines of their own, so long
// hashes and addresses are never cut.
func WrapField(c *tui.Common, label string, lw int, value, note string, width int) string {
	st := c.Styles
	bare := note // on lines of its own, styled only there: most rows fit
	if note != "" {
		note = st.Muted.Render("  " + note)
	}
	field := Field(c, label, lw, value)
	if one := field + note; width <= 0 || Width(one) <= width {
		return one
	}
	if Width(field) <= width {
		if note == "" {
			return field
		}
		// The note under the value, two in from its column as beside it,
		// every line of it: a wrapped note reads as one block.
		pad := Pad("", lw+3)
		return field + "\n" + pad + strings.ReplaceAll(WrapTo(st.Muted.Render(bare), max(width-lw-3, 8)), "\n", "\n"+pad)
	}
	// The value beside its label, out of the label column, where that fits
	// (a row saved on the smallest terminals); else on a line of its own,
	// indented; one too wide even so (a digest on a narrow terminal) is
	// broken into pieces in the value column rather than cut, continuation
	// lines indented under it; permissions joined by & break after one.
	var out string
	if beside := st.Label.Render(label) + "  " + value; label != "" && Width(beside) <= width {
		out = beside
	} else if Width(value) <= width-2 {
		// Two in from the label's text (a message field's is indented), so
		// the value reads as its field's, where that fits.
		in := "  "
		if deeper := strings.Repeat(" ", len(label)-len(strings.TrimLeft(label, " "))+2); Width(deeper+value) <= width {
			in = deeper
		}
		if label != "" {
			out = st.Label.Render(label) + "\n"
		}
		out += in + value
	} else {
		indent := strings.Repeat(" ", lw+1)
		pieces := tui.WrapAfter(value, max(width-lw-1, 8), "&")
		out = Field(c, label, lw, strings.ReplaceAll(pieces, "\n", "\n"+indent))
	}
	if note != "" {
		if Width(note) > width {
			note = WrapTo(note, width)
		}
		out += "\n" + note
	}
	return out
}

// Indent puts n spaces before every line and ends each with a newline.
func Indent(lines []string, n int) string {
	sp := strings.Repeat(" ", n)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(sp + l + "\n")
	}
	return b.String()
}

// OrDash is s, or a dash where s is empty, so a missing value still shows.
func OrDash(s string) string { return cmp.Or(s, "—") }

// WrapTo wraps plain text at word boundaries to width w (none when w <= 0).
func WrapTo(s string, w int) string {
	if w <= 0 {
		return s
	}
	return tui.Wrap(s, w)
}
