package deposit

import (
	"fmt"
	"image"
	"image/color"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// qrImage rebuilds the picture a phone camera sees from drawn text: each
// cell is one module wide and two high (upper and lower half), 4 pixels a
// module; anything but a block character is light.
func qrImage(lines []string) image.Image {
	const px = 4
	width := 0
	for _, l := range lines {
		width = max(width, len([]rune(l)))
	}
	img := image.NewGray(image.Rect(0, 0, width*px, len(lines)*2*px))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for y, l := range lines {
		for x, r := range []rune(l) {
			top, bottom := r == '█' || r == '▀', r == '█' || r == '▄'
			for dy := range 2 * px {
				if dy < px && !top || dy >= px && !bottom {
					continue
				}
				for dx := range px {
					img.SetGray(x*px+dx, y*2*px+dy, color.Gray{})
				}
			}
		}
	}
	return img
}

func decodeQR(t *testing.T, lines []string) string {
	t.Helper()
	text, ok := tryDecodeQR(lines)
	if !ok {
		t.Fatalf("the QR code does not decode:\n%s", strings.Join(lines, "\n"))
	}
	return text
}

// tryDecodeQR decodes the picture of lines, as a phone's standard reader
// does (dark modules on light).
func tryDecodeQR(lines []string) (string, bool) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(qrImage(lines))
	if err != nil {
		return "", false
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_TRY_HARDER: true})
	if err != nil {
		return "", false
	}
	return res.GetText(), true
}

// TestQRScannable: the code of each kind of address decodes back to it, is
// drawn dark on light in fixed colours, and has a 4-module quiet zone.
func TestQRScannable(t *testing.T) {
	for _, addr := range []string{
		sandbox.DemoAddress,                            // EVM
		"TUmntKHCWYHuQLxPYpNkGiqb2c8EHi4haR",           // Tron
		"66uHCjrf4dv9aF9cBPrGwcLrSM3Xx87EhHAhyCtc6Juy", // Solana
	} {
		code, err := renderQR(addr, inkFor(colorprofile.TrueColor, true))
		if err != nil {
			t.Fatal(err)
		}
		plain := make([]string, len(code.Lines))
		for i, l := range code.Lines {
			plain[i] = ansi.Strip(l)
			if !strings.Contains(l, "38;2;0;0;0") || !strings.Contains(l, "48;2;255;255;255") {
				t.Fatalf("line %d is not black on white: %q", i, l)
			}
			if w := ansi.StringWidth(l); w != code.Width {
				t.Fatalf("line %d is %d wide, want %d", i, w, code.Width)
			}
		}
		if got := decodeQR(t, plain); got != addr {
			t.Errorf("decoded %q, want %q", got, addr)
		}
		requireQuietZone(t, plain)
	}
}

// inkFor is the QR ink for a terminal of profile, on a dark or light
// background.
func inkFor(profile colorprofile.Profile, dark bool) qrInk {
	c := tui.NewCommon(dark, nil)
	c.Profile = profile
	return qrInkFor(c)
}

// TestQRScannableUnderNoColor (issue 12 bug 11): under NO_COLOR the
// terminal draws the code in its own colours, so the code is drawn with
// reverse video on a dark terminal and without on a light one; a camera
// sees dark modules on light and decodes it on both.
func TestQRScannableUnderNoColor(t *testing.T) {
	addr := "66uHCjrf4dv9aF9cBPrGwcLrSM3Xx87EhHAhyCtc6Juy"
	for _, dark := range []bool{true, false} {
		t.Run(fmt.Sprintf("dark=%v", dark), func(t *testing.T) {
			code, err := renderQR(addr, inkFor(colorprofile.ASCII, dark))
			if err != nil {
				t.Fatal(err)
			}
			seen := make([]string, len(code.Lines))
			for i, l := range code.Lines {
				if strings.Contains(l, "38;") || strings.Contains(l, "48;") {
					t.Fatalf("line %d has colours under NO_COLOR: %q", i, l)
				}
				seen[i] = onTerminal(l, dark)
			}
			if got := decodeQR(t, seen); got != addr {
				t.Errorf("decoded %q, want %q", got, addr)
			}
			if code.Note != "" {
				t.Errorf("a note under NO_COLOR, where the code reads on both backgrounds: %q", code.Note)
			}
		})
	}
}

// TestQRScannableWithoutAttributes (issue 29 item 2): under TERM=dumb the
// terminal shows no colour and no attribute, so the blocks are its
// foreground and the blanks its background. Drawn for a dark background,
// the light modules and the quiet zone are the blocks: a dark terminal
// shows dark modules on a light quiet zone, which decodes; a light one
// shows the negative, which no standard reader decodes, so a note names
// the background and the flag that draws for the other. The same for a
// light background the other way round.
func TestQRScannableWithoutAttributes(t *testing.T) {
	for _, addr := range []string{sandbox.DemoAddress, "66uHCjrf4dv9aF9cBPrGwcLrSM3Xx87EhHAhyCtc6Juy"} {
		for _, drawnDark := range []bool{true, false} {
			code, err := renderQR(addr, inkFor(colorprofile.NoTTY, drawnDark))
			if err != nil {
				t.Fatal(err)
			}
			for i, l := range code.Lines {
				if strings.Contains(l, "\x1b") {
					t.Fatalf("line %d has an escape sequence under TERM=dumb: %q", i, l)
				}
			}
			other := map[bool]string{true: "--theme light", false: "--theme dark"}[drawnDark]
			if !strings.Contains(code.Note, other) {
				t.Errorf("drawn for dark=%v, the note does not name %s: %q", drawnDark, other, code.Note)
			}
			for _, seenDark := range []bool{true, false} {
				seen := make([]string, len(code.Lines))
				for i, l := range code.Lines {
					seen[i] = onTerminal(l, seenDark)
				}
				if seenDark != drawnDark {
					if got, ok := tryDecodeQR(seen); ok {
						t.Errorf("drawn for dark=%v, seen on dark=%v: a negative decoded to %q; is it drawn for the right background?", drawnDark, seenDark, got)
					}
					continue
				}
				if got := decodeQR(t, seen); got != addr {
					t.Errorf("drawn for and seen on dark=%v: decoded %q, want %q", seenDark, got, addr)
				}
				requireQuietZone(t, seen)
			}
		}
	}
}

// requireQuietZone fails unless the picture seen (dark half-cells as
// blocks) has 4 light modules round the code: 2 text lines at top and
// bottom, 4 columns at each side.
func requireQuietZone(t *testing.T, seen []string) {
	t.Helper()
	n := len(seen)
	for i, l := range seen {
		edge := i < 2 || i >= n-2
		if edge && strings.TrimSpace(l) != "" || !edge && (l[:4] != "    " || !strings.HasSuffix(l, "    ")) {
			t.Fatalf("no quiet zone on line %d: %q\n%s", i, l, strings.Join(seen, "\n"))
		}
	}
}

// onTerminal is what a colourless terminal shows for a line: its
// foreground is light on a dark background and dark on a light one, and
// reverse video (SGR 7) swaps the two. It returns the dark half-cells as
// block characters, the picture qrImage expects.
func onTerminal(line string, darkBg bool) string {
	reverse := strings.Contains(line, "\x1b[7m") || strings.Contains(line, ";7m")
	inkDark := darkBg == reverse // the glyphs' colour is dark
	var b strings.Builder
	for _, r := range ansi.Strip(line) {
		top, bottom := r == '█' || r == '▀', r == '█' || r == '▄'
		if !inkDark {
			top, bottom = !top, !bottom
		}
		switch {
		case top && bottom:
			b.WriteRune('█')
		case top:
			b.WriteRune('▀')
		case bottom:
			b.WriteRune('▄')
		default:
			b.WriteRune(' ')
		}
	}
	return b.String()
}

// TestQRDecodesFromScreen reads the code off whole frames, as a phone reads
// the terminal: at 80x24 (code alone) and 120x40 (code under the details),
// in colour and under TERM=dumb on the dark background it is drawn for
// (onTerminal: the text's cells count as the background).
func TestQRDecodesFromScreen(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.NoTTY} {
		for _, sz := range screentest.GoldenSizes {
			if sz.H < 24 {
				continue // the code needs 22 lines: at 60x20 the screen says so (TestGolden)
			}
			t.Run(fmt.Sprintf("%s/%dx%d", p, sz.W, sz.H), func(t *testing.T) {
				c := screentest.NewLoggedInConsole(t, sz.W, sz.H, screentest.ConsoleOpts{Profile: p})
				c.Open(New(c.App))
				c.UntilShows("CHAIN ID", "SOLANA")
				addr := c.GenerateSolana()
				c.Press("enter")
				seen := strings.Split(c.Plain(), "\n") // what TERM=dumb shows
				if p == colorprofile.NoTTY {
					for i, l := range seen {
						seen[i] = onTerminal(l, true)
					}
				}
				if got := decodeQR(t, seen); got != addr {
					t.Errorf("decoded %q, want %q", got, addr)
				}
			})
		}
	}
}

// TestQRNoRoomSaysWhatItLacks: a code that does not fit says how many more
// columns and rows it takes, and that many is exactly enough; its own size
// ("needs 39x20") read as the terminal's at 60x20, which has 20 rows.
func TestQRNoRoomSaysWhatItLacks(t *testing.T) {
	lacks := regexp.MustCompile(`needs (?:(\d+) more columns?)?(?: and )?(?:(\d+) more rows?)?:`)
	for _, size := range [][2]int{{60, 17}, {60, 12}, {34, 40}} {
		d, _ := loadedDeposit(t, size[0], size[1], sandbox.Options{})
		d.Update(screentest.Key("enter"))
		m := lacks.FindStringSubmatch(ansi.Strip(d.View()))
		if m == nil || m[1]+m[2] == "" {
			t.Fatalf("at %dx%d the notice does not say what it lacks:\n%s", size[0], size[1], ansi.Strip(d.View()))
		}
		cols, _ := strconv.Atoi(m[1])
		rows, _ := strconv.Atoi(m[2])
		grown, _ := loadedDeposit(t, size[0]+cols, size[1]+rows, sandbox.Options{})
		grown.Update(screentest.Key("enter"))
		if l, _ := grown.layout(); l == qrNoRoom {
			t.Errorf("at %dx%d it asks %d more columns and %d more rows, and still has no room", size[0], size[1], cols, rows)
		}
		for _, short := range [][2]int{{cols - 1, rows}, {cols, rows - 1}} {
			if short[0] < 0 || short[1] < 0 {
				continue
			}
			less, _ := loadedDeposit(t, size[0]+short[0], size[1]+short[1], sandbox.Options{})
			less.Update(screentest.Key("enter"))
			if l, _ := less.layout(); l != qrNoRoom {
				t.Errorf("at %dx%d it asks %d more columns and %d more rows, where fewer fit", size[0], size[1], cols, rows)
			}
		}
	}
}

// TestQRNoRoomFooterSaysWhatEnterDoes: with the notice drawn where a code
// does not fit, the footer says enter hides the notice, as it does; "hide
// QR" named a code not drawn. Where the code is drawn it hides the QR.
func TestQRNoRoomFooterSaysWhatEnterDoes(t *testing.T) {
	enterSays := func(d *depositScreen) string {
		for _, b := range d.KeyMap().ShortHelp() {
			if b.Enabled() && slices.Contains(b.Keys(), "enter") {
				return b.Help().Desc
			}
		}
		return ""
	}
	d, _ := loadedDeposit(t, 60, 17, sandbox.Options{})
	d.Update(screentest.Key("enter"))
	if l, _ := d.layout(); l != qrNoRoom || enterSays(d) != "hide notice" {
		t.Fatalf("with the notice drawn, enter says %q", enterSays(d))
	}
	d.Update(screentest.Key("enter"))
	if strings.Contains(ansi.Strip(d.View()), "The QR code needs") || enterSays(d) != "" {
		t.Errorf("enter did not take the notice down, or says %q after (the code does not fit)", enterSays(d))
	}
	big, _ := loadedDeposit(t, 120, 40, sandbox.Options{})
	if enterSays(big) != "QR code" {
		t.Errorf("where the code fits, enter says %q", enterSays(big))
	}
	big.Update(screentest.Key("enter"))
	if l, _ := big.layout(); l == qrNoRoom || enterSays(big) != "hide QR" {
		t.Errorf("with the code drawn, enter says %q", enterSays(big))
	}
}
