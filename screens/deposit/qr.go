package deposit

import (
	"strings"

	"charm.land/lipgloss/v2"
	"rsc.io/qr"

	"github.com/svcwallet/svcwallet/tui"
)

// qrQuietZone is the blank border a scanner needs around the code, in modules.
const qrQuietZone = 4

// qrInk is how a code's modules reach the screen: phone scanners want
// dark modules on a light quiet zone, so what the terminal shows decides.
type qrInk struct {
	style lipgloss.Style
	// lightGlyphs draws the light modules (quiet zone included) as
	// blocks, and the dark ones as blanks.
	lightGlyphs bool
	// note says what background the code was drawn for, where the
	// terminal's colours are its own and svcwallet could only guess.
	note string
}

// qrInkFor picks the ink for c's terminal:
//   - colours: black blocks on white, fixed, whatever the background;
//   - NO_COLOR (attributes, no colours): the terminal's own colours, its
//     foreground light on a dark background, so there reverse video turns
//     the blocks dark on light;
//   - TERM=dumb (no attributes): blocks are the foreground, blanks the
//     background, so on a dark background the light modules and the quiet
//     zone are the blocks (on a light one, the dark modules). The
//     background is the detected or --theme one; a note says which, since
//     on the other the code shows as its negative, which many scanners
//     do not read.
func qrInkFor(c *tui.Common) qrInk {
	dark := c.Styles.IsDark
	switch {
	case c.Colours():
		return qrInk{style: lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#FFFFFF"))}
	case !c.Plain():
		return qrInk{style: lipgloss.NewStyle().Reverse(dark)}
	case dark:
		return qrInk{lightGlyphs: true, note: "Drawn for a dark background: on a light one, start svcwallet with --theme light"}
	}
	return qrInk{note: "Drawn for a light background: on a dark one, start svcwallet with --theme dark"}
}

// qrCode is a rendered QR code: two module rows per text line, drawn with
// half blocks, quiet zone included; and the ink's note, if any.
type qrCode struct {
	Lines []string
	Width int // columns
	Note  string
}

// renderQR encodes text (a deposit address) at error-correction level M,
// in ink.
func renderQR(text string, ink qrInk) (qrCode, error) {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return qrCode{}, err
	}
	n := code.Size + 2*qrQuietZone
	glyph := func(x, y int) bool {
		x, y = x-qrQuietZone, y-qrQuietZone
		dark := x >= 0 && y >= 0 && x < code.Size && y < code.Size && code.Black(x, y)
		return dark != ink.lightGlyphs
	}
	out := qrCode{Width: n, Note: ink.note}
	var row strings.Builder
	for y := 0; y < n; y += 2 {
		row.Reset()
		for x := range n {
			// Past the last row, the half below is light, as the quiet zone.
			top, bottom := glyph(x, y), glyph(x, y+1)
			switch {
			case top && bottom:
				row.WriteString("█")
			case top:
				row.WriteString("▀")
			case bottom:
				row.WriteString("▄")
			default:
				row.WriteString(" ")
			}
		}
		out.Lines = append(out.Lines, ink.style.Render(row.String()))
	}
	return out, nil
}
