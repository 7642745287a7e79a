// Where the selected chain's QR code goes on the screen, and what it
// says when the screen has no room for it (qr.go draws the code).

package deposit

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/tui"
)

// qrLayout is where the selected chain's QR code goes.
type qrLayout int

const (
	qrNone   qrLayout = iota // not asked for, or no address yet
	qrBelow                  // under the chain's details, list above
	qrAlone                  // fills the screen: chain, address, code
	qrNoRoom                 // does not fit; a notice says so
)

func (d *depositScreen) toggleQR() tea.Cmd {
	d.showQR = !d.showQR
	return nil
}

// qrCode is the selected chain's code, rendered once per address.
func (d *depositScreen) qrCode() (qrCode, bool) {
	ch, ok := d.list.Selected()
	if !ok || ch.DepositAddress == "" {
		return qrCode{}, false
	}
	c := d.app.Common
	cacheKey := fmt.Sprint(ch.DepositAddress, c.Profile, c.Styles.IsDark) // the background can change
	code, ok := d.qr[cacheKey]
	if !ok {
		var err error
		if code, err = renderQR(ch.DepositAddress, qrInkFor(c)); err != nil {
			return qrCode{}, false
		}
		d.qr[cacheKey] = code
	}
	return code, true
}

// layout decides where the QR code goes: under the details when the list
// keeps a few rows, else alone on the screen, else nowhere.
func (d *depositScreen) layout() (qrLayout, qrCode) {
	if !d.showQR {
		return qrNone, qrCode{}
	}
	code, ok := d.qrCode()
	if !ok {
		return qrNone, code
	}
	return d.place(code), code
}

// place is where code goes at this size, asked for or not.
func (d *depositScreen) place(code qrCode) qrLayout {
	switch {
	case code.Width+2 > d.w:
		return qrNoRoom
	case d.h-d.baseDetailHeight()-1-d.qrHeight(code)-4 >= min(3, d.list.Len()):
		return qrBelow
	case 1+len(code.Lines)+d.requiredUnder(code) <= d.h:
		return qrAlone
	}
	return qrNoRoom
}

// qrLacking: the selected chain's code has no room at this size.
func (d *depositScreen) qrLacking() bool {
	code, ok := d.qrCode()
	return ok && d.place(code) == qrNoRoom
}

// qrLacks says what the screen lacks to draw the code alone ("2 more
// rows"): the code's own size read as a terminal's misled at 60x20.
func (d *depositScreen) qrLacks(code qrCode) string {
	var lack []string
	if n := code.Width + 2 - d.w; n > 0 {
		lack = append(lack, fmt.Sprintf("%d more %s", n, kit.Plural(n, "column", "columns")))
	}
	if n := 1 + len(code.Lines) + d.requiredUnder(code) - d.h; n > 0 {
		lack = append(lack, fmt.Sprintf("%d more %s", n, kit.Plural(n, "row", "rows")))
	}
	return strings.Join(lack, " and ")
}

// qrAloneView gives the whole area to the code, with the chain and address
// on the line above it so the user can compare what the phone reads.
func (d *depositScreen) qrAloneView(code qrCode) string {
	k := layout.InksFor(d.app.Common)
	ch, _ := d.list.Selected()
	name := ansi.Truncate(ch.Chain, max(d.w-4-ansi.StringWidth(ch.DepositAddress), 1), "…")
	head := k.Heading.On(name) + "  " + k.Bold.On(ch.DepositAddress)
	// The filter being typed (or kept) shows here too: the list it picks
	// from is hidden behind the code.
	if f := d.list.FilterView(); f != "" {
		if room := d.w - ansi.StringWidth(head) - 2; room >= 4 {
			head = ansi.Truncate(f, room, "…") + "  " + head
		}
	}
	return layout.Clip(head+"\n"+d.qrView(code, d.h-1), d.w)
}

// qrNoteRoom is the fewest columns right of the code its notes are wrapped
// in; with fewer they go under the code.
const qrNoteRoom = 24

// noteBeside: the code's notes go right of it, costing no line.
func (d *depositScreen) noteBeside(code qrCode) bool { return d.w-code.Width-4 >= qrNoteRoom }

// qrNotes are what is said of the code: on the embedded sandbox first that
// its address receives nothing real, then the ink's note, if any.
func (d *depositScreen) qrNotes(code qrCode) []string {
	var notes []string
	if d.embedded() {
		notes = append(notes, qrSandboxWords)
	}
	if code.Note != "" {
		notes = append(notes, code.Note)
	}
	return notes
}

// notesUnder is the notes' lines under the code, where they do not go
// beside it.
func (d *depositScreen) notesUnder(code qrCode) []string {
	if d.noteBeside(code) {
		return nil
	}
	var lines []string
	for _, n := range d.qrNotes(code) {
		lines = append(lines, tui.WrapAtSpaces(n, max(d.w, 1))...)
	}
	return lines
}

// requiredUnder is the lines under the code the sandbox's words take: the
// code is never drawn without them (the ink's note is left out where the
// screen lacks its line).
func (d *depositScreen) requiredUnder(code qrCode) int {
	if !d.embedded() || d.noteBeside(code) {
		return 0
	}
	return len(tui.WrapAtSpaces(qrSandboxWords, max(d.w, 1)))
}

// qrHeight is the lines the code and its notes take.
func (d *depositScreen) qrHeight(code qrCode) int { return len(code.Lines) + len(d.notesUnder(code)) }

// qrView is the code indented, with its notes beside it or under it, as
// many of those under it as the screen has lines for, since the code comes
// first.
func (d *depositScreen) qrView(code qrCode, lines int) string {
	note := layout.InksFor(d.app.Common).Muted
	if d.noteBeside(code) {
		var beside []string
		for _, n := range d.qrNotes(code) {
			beside = append(beside, tui.WrapAtSpaces(n, min(d.w-code.Width-4, 40))...)
		}
		out := slices.Clone(code.Lines)
		for i, l := range beside {
			if i < len(out) {
				out[i] += "  " + note.On(strings.TrimRight(l, " "))
			}
		}
		return layout.Indent(out, 2)
	}
	b := layout.Indent(code.Lines, 2)
	for i, l := range d.notesUnder(code) {
		if len(code.Lines)+i < lines {
			b += note.On(strings.TrimRight(l, " ")) + "\n"
		}
	}
	return b
}
