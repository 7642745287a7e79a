package deposit

import (
	"strings"

	"charm.land/lipgloss/v2"
	"rsc.io/qr"
)

// qrQuietZone is the blank border a scanner needs around the code, in modules.
const qrQuietZone = 4

// qrStyle draws modules black on white whatever the terminal's theme: phone
// scanners expect dark modules on a light background. Under NO_COLOR the
// terminal drops both colours and draws the blocks in its own foreground,
// which is light on a dark terminal: there reverse video, which NO_COLOR
// keeps, turns the code dark on light again.
func qrStyle(noColor, darkTerminal bool) lipgloss.Style {
	if noColor {
		return lipgloss.NewStyle().Reverse(darkTerminal)
	}
	return lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#FFFFFF"))
}

// qrCode is a rendered QR code: two module rows per text line, drawn with
// half blocks, quiet zone included.
type qrCode struct {
	Lines []string
	Width int // columns
}

// renderQR encodes text (a deposit address) at error-correction level M,
// styled for the terminal (see qrStyle).
func renderQR(text string, noColor, darkTerminal bool) (qrCode, error) {
	code, err := qr.Encode(text, qr.M)
	if err != nil {
		return qrCode{}, err
	}
	n := code.Size + 2*qrQuietZone
	dark := func(x, y int) bool {
		x, y = x-qrQuietZone, y-qrQuietZone
		return x >= 0 && y >= 0 && x < code.Size && y < code.Size && code.Black(x, y)
	}
	out, style := qrCode{Width: n}, qrStyle(noColor, darkTerminal)
	var row strings.Builder
	for y := 0; y < n; y += 2 {
		row.Reset()
		for x := range n {
			top, bottom := dark(x, y), y+1 < n && dark(x, y+1)
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
		out.Lines = append(out.Lines, style.Render(row.String()))
	}
	return out, nil
}
