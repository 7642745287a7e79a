package deposit

import (
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// loadedDeposit is a deposit screen of the demo account, sized w×h, whose
// listing has arrived; sb tunes the sandbox (e.g. ExtraChains).
func loadedDeposit(t testing.TB, w, h int, sb sandbox.Options) (*depositScreen, *screentest.Console) {
	t.Helper()
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{Sandbox: sb})
	d := New(c.App).(*depositScreen)
	d.SetSize(w, h)
	msgs := screentest.RunCmdSync(t, d.Init())
	d.Update(screentest.FindMsg[depositsLoadedMsg](t, msgs))
	if d.loading || d.err != nil || d.list.Len() == 0 {
		t.Fatalf("deposit list did not load: err=%v, %d chains", d.err, d.list.Len())
	}
	return d, c
}

// TestDepositIdle: the spinner runs while the listing and a generation are
// in flight, and stops when they answer; nothing is scheduled while idle.
func TestDepositIdle(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	d := New(c.App).(*depositScreen)
	d.SetSize(120, 38)
	msgs := screentest.RunCmdSync(t, d.Init())
	tick := screentest.FindMsg[spinner.TickMsg](t, msgs)
	if _, cmd := d.Update(tick); cmd == nil {
		t.Fatal("while loading, a spinner tick schedules no next tick: the control is broken")
	}
	if _, cmd := d.Update(screentest.FindMsg[depositsLoadedMsg](t, msgs)); cmd != nil {
		t.Error("the loaded listing returned a command")
	}
	// A tick already on its way when the answer came is the last one.
	screentest.RequireIdle(t, d, "after loading", d.spin.Tick())
	screentest.RequireIdle(t, d, "after loading", screentest.OtherMsgs()...)

	d.Update(screentest.Key("end")) // SOLANA
	_, cmd := d.Update(screentest.Key("g"))
	msgs = screentest.RunCmdSync(t, cmd)
	if _, cmd := d.Update(screentest.FindMsg[spinner.TickMsg](t, msgs)); cmd == nil {
		t.Fatal("while generating, the spinner does not tick")
	}
	d.Update(screentest.FindMsg[addressGeneratedMsg](t, msgs))
	screentest.RequireIdle(t, d, "after generating", d.spin.Tick())
	screentest.RequireIdle(t, d, "after generating", screentest.OtherMsgs()...)
	d.Update(screentest.Key("enter")) // QR shown: still nothing moves
	screentest.RequireIdle(t, d, "QR shown", d.spin.Tick())
}

// TestDepositCopy: c sets the clipboard with OSC 52, and inside tmux also
// sends the sequence wrapped for tmux passthrough. Inside tmux the toast
// follows tmux's set-clipboard (issue 12 bug 10): with off or external the
// copy never reaches the terminal, and the toast says how to let it through.
func TestDepositCopy(t *testing.T) {
	d, c := loadedDeposit(t, 120, 38, sandbox.Options{})
	addr := d.list.Item(0).DepositAddress
	osc := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(addr)) + "\a"
	for _, setClipboard := range []string{"", "on", "external", "off"} {
		inTmux := setClipboard != ""
		t.Run("tmux set-clipboard="+setClipboard, func(t *testing.T) {
			c.Env["TMUX"] = ""
			asked := false
			c.App.TmuxClipboard = func() (string, error) { asked = true; return setClipboard + "\n", nil }
			if inTmux {
				c.Env["TMUX"] = "/tmp/tmux-0/default,1,0"
			}
			_, cmd := d.Update(screentest.Key("c"))
			msgs := screentest.RunCmdSync(t, cmd)
			want := tea.Raw(ansi.SetSystemClipboard(addr))()
			var gotClip bool
			var raw []string
			for _, m := range msgs {
				if m == want {
					gotClip = true
				} else if r, ok := m.(tea.RawMsg); ok {
					raw = append(raw, fmt.Sprint(r.Msg))
				}
			}
			if !gotClip {
				t.Errorf("no clipboard message for %s among %#v", addr, msgs)
			}
			wrapped := "\x1bPtmux;" + strings.ReplaceAll(osc, "\x1b", "\x1b\x1b") + "\x1b\\"
			switch {
			case inTmux && (len(raw) != 1 || raw[0] != wrapped):
				t.Errorf("in tmux: raw output besides the clipboard %q, want %q", raw, wrapped)
			case !inTmux && len(raw) != 0:
				t.Errorf("outside tmux: unexpected raw output besides the clipboard %q", raw)
			}
			if asked != inTmux {
				t.Errorf("tmux asked: %v, inside tmux: %v", asked, inTmux)
			}
			if setClipboard == "off" || setClipboard == "external" {
				e := screentest.FindMsg[tui.ErrorMsg](t, msgs)
				if !strings.Contains(e.Err.Error(), "tmux set -g set-clipboard on") || !strings.Contains(e.Err.Error(), "Not copied") {
					t.Errorf("toast %q does not say the copy stops at tmux and how to enable it", e.Err)
				}
				return
			}
			if info := screentest.FindMsg[tui.InfoMsg](t, msgs); !strings.Contains(info.Text, "Copied") || !strings.Contains(info.Text, addr) {
				t.Errorf("toast %q does not show the copied address", info.Text)
			}
		})
	}
	c.Env["TMUX"] = ""
	d.Update(screentest.Key("end")) // SOLANA, not provisioned: nothing to copy
	msgs := screentest.RunCmdSync(t, func() tea.Cmd { _, cmd := d.Update(screentest.Key("c")); return cmd }())
	for _, m := range msgs {
		if _, ok := m.(tui.InfoMsg); !ok {
			t.Errorf("copying an unprovisioned chain sent %#v", m)
		}
	}
}

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

// TestDepositManyChains: with 1,000 chains only the visible rows are drawn,
// the cursor stays on screen, and the position is shown.
func TestDepositManyChains(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{ExtraChains: 1000})
	if d.list.Len() != 1007 {
		t.Fatalf("%d chains, want 1007", d.list.Len())
	}
	for range 500 {
		d.Update(screentest.Key("down"))
	}
	v := ansi.Strip(d.View())
	if n := strings.Count(v, "SYNTH_"); n > 38 || n < 10 {
		t.Errorf("%d chain rows drawn for 38 lines", n)
	}
	sel := d.list.Item(500).Chain
	if !strings.Contains(v, "› "+sel) {
		t.Errorf("the selected chain %s is not visible:\n%s", sel, v)
	}
	if !strings.Contains(v, "of 1007 chains") {
		t.Errorf("no position shown:\n%s", v)
	}
	if lines := strings.Count(v, "\n") + 1; lines > 38 {
		t.Errorf("view has %d lines for 38", lines)
	}
}

// TestDepositProviderUnreachable: empty stablecoin contracts are explained.
func TestDepositProviderUnreachable(t *testing.T) {
	c := screentest.NewLoggedInConsole(t, 120, 40, screentest.ConsoleOpts{})
	c.Srv.Exchange.SetProviderReachable(false)
	c.Open(New(c.App))
	c.UntilShows("CHAIN ID", "SOLANA")
	if v := c.Plain(); !strings.Contains(v, "USDT    unknown: provider unreachable") {
		t.Errorf("no provider-unreachable wording:\n%s", v)
	}
}

// TestDepositHomeEnd: End selects the last chain and Home the first, in view;
// g generates there, so it does not jump; the detail's "chain id" lines up
// with the address under it.
func TestDepositHomeEnd(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{ExtraChains: 100})
	last := d.list.Item(d.list.Len() - 1)
	d.Update(screentest.Key("end"))
	if v := ansi.Strip(d.View()); !strings.Contains(v, "› "+last.Chain) {
		t.Fatalf("End did not select %s:\n%s", last.Chain, v)
	}
	d.Update(screentest.Key("home"))
	if v := ansi.Strip(d.View()); !strings.Contains(v, "› "+d.list.Item(0).Chain) {
		t.Fatalf("Home did not select %s:\n%s", d.list.Item(0).Chain, v)
	}
	for _, downs := range []int{0, 6} { // ARBITRUM, SOLANA
		d.Update(screentest.Key("home"))
		for range downs {
			d.Update(screentest.Key("down"))
		}
		ch, _ := d.list.Selected()
		var head, addr string
		for _, l := range strings.Split(ansi.Strip(d.View()), "\n") {
			switch {
			case strings.HasPrefix(l, ch.Chain+" ") && strings.Contains(l, "chain id"):
				head = l
			case strings.HasPrefix(l, "Address "):
				addr = l
			}
		}
		valueAt := len(addr) - len(strings.TrimLeft(addr[len("Address"):], " "))
		if head == "" || strings.Index(head, "chain id") != valueAt {
			t.Errorf("%s: %q not aligned with %q", ch.Chain, head, addr)
		}
	}
}

// TestCopyWithoutAddressNamesOnlyKeysThatAct: c on a chain without an
// address says to press g only when g would generate one; while a
// generation runs (g is off), it says what is being generated instead.
func TestCopyWithoutAddressNamesOnlyKeysThatAct(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{})
	d.Update(screentest.Key("end")) // SOLANA, no address yet
	info := func(when string) string {
		_, cmd := d.Update(screentest.Key("c"))
		return screentest.FindMsg[tui.InfoMsg](t, screentest.RunCmdSync(t, cmd)).Text
	}
	if got := info("idle"); !strings.Contains(got, "press g") {
		t.Fatalf("idle: %q, want it to name g", got)
	}
	d.Update(screentest.Key("g"))
	if got := info("generating"); strings.Contains(got, "press g") || !strings.Contains(got, "being generated") {
		t.Fatalf("while generating: %q names a key that does nothing", got)
	}
}

// TestDepositFilter (issue 12 friction): / filters the chain list by name,
// chain id or address as it is typed; while typing, letters are text (the
// footer offers no c); enter keeps the filter and the count says how many
// are shown; nothing matching says so; an empty filter lists all.
func TestDepositFilter(t *testing.T) {
	d, _ := loadedDeposit(t, 120, 38, sandbox.Options{})
	all := d.list.Len()
	d.Update(screentest.Key("/"))
	if !d.Inputting() || !screentest.Offers(d.KeyMap(), "enter") || screentest.Offers(d.KeyMap(), "c") {
		t.Fatalf("typing a filter: inputting %v, footer %v", d.Inputting(), d.KeyMap().ShortHelp())
	}
	screentest.TypeInto(d, "sol")
	if d.list.Len() != 1 || d.list.Item(0).Chain != "SOLANA" {
		t.Fatalf("filter sol lists %d chains", d.list.Len())
	}
	if v := ansi.Strip(d.View()); !strings.Contains(v, "/ sol") || strings.Contains(v, "ARBITRUM") || !strings.Contains(v, "1 of 7 chains shown") {
		t.Errorf("the filtered view:\n%s", v)
	}
	d.Update(screentest.Key("enter"))
	if d.Inputting() || !screentest.Offers(d.KeyMap(), "/") || !screentest.Offers(d.KeyMap(), "g") || !screentest.Offers(d.KeyMap(), "esc") {
		t.Errorf("after enter: inputting %v, footer %v", d.Inputting(), d.KeyMap().ShortHelp())
	}
	d.Update(screentest.Key("/"))
	for range 3 {
		d.Update(screentest.Key("backspace"))
	}
	// zz: no chain, id or address holds it (the Tron address holds a z).
	d.Update(screentest.Key("z"))
	d.Update(screentest.Key("z"))
	if v := ansi.Strip(d.View()); d.list.Len() != 0 || !strings.Contains(v, "No chains match 'zz': esc clears the filter.") {
		t.Errorf("filter zz: %d chains:\n%s", d.list.Len(), v)
	}
	d.Update(screentest.Key("backspace"))
	d.Update(screentest.Key("backspace"))
	if d.list.Len() != all {
		t.Errorf("an empty filter lists %d of %d chains", d.list.Len(), all)
	}
}

// TestFilterShowsOverTheCode: with the code filling the screen, the filter
// being typed shows on its top line beside the chain it picks, as it does
// above the list; where the line is short, the filter gives way, never
// the address.
func TestFilterShowsOverTheCode(t *testing.T) {
	d, _ := loadedDeposit(t, 80, 22, sandbox.Options{})
	d.Update(screentest.Key("enter"))
	if l, _ := d.layout(); l != qrAlone {
		t.Fatalf("at 80x22 the code is laid out %d, not alone", l)
	}
	d.Update(screentest.Key("/"))
	screentest.TypeInto(d, "bas")
	top, _, _ := strings.Cut(ansi.Strip(d.View()), "\n")
	if !strings.Contains(top, "/ bas") || !strings.Contains(top, "BASE  0x") {
		t.Errorf("the top line over the code: %q", top)
	}
	if w := ansi.StringWidth(top); w > 80 {
		t.Errorf("the top line is %d wide", w)
	}
	// Narrower, the filter gives way before the address is cut.
	for w := 46; w <= 56; w += 2 {
		d, _ := loadedDeposit(t, w, 22, sandbox.Options{})
		d.Update(screentest.Key("enter"))
		d.Update(screentest.Key("/"))
		screentest.TypeInto(d, "bas")
		ch, _ := d.list.Selected()
		if top, _, _ := strings.Cut(ansi.Strip(d.View()), "\n"); ch.DepositAddress == "" || !strings.Contains(top, ch.DepositAddress) {
			t.Errorf("at %d columns the top line cuts the address: %q", w, top)
		}
	}
}

// TestDepositAddressNeverCut (issue 21 bug 7): at the narrowest terminal
// the chain's name and id give way and every address is drawn whole.
func TestDepositAddressNeverCut(t *testing.T) {
	d, _ := loadedDeposit(t, 60, 18, sandbox.Options{})
	d.Update(screentest.Key("end")) // SOLANA, the last
	_, cmd := d.Update(screentest.Key("g"))
	if ch, _ := d.list.Selected(); ch.Chain != "SOLANA" {
		t.Fatalf("g moved the cursor to %s: it generates here", ch.Chain)
	}
	d.Update(screentest.FindMsg[addressGeneratedMsg](t, screentest.RunCmdSync(t, cmd)))
	v := ansi.Strip(d.View())
	lines := strings.Split(v, "\n")
	head := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "DEPOSIT ADDRESS") })
	if head < 0 || len(lines) < head+1+d.list.Len() {
		t.Fatalf("no list of %d chains:\n%s", d.list.Len(), v)
	}
	for i := range d.list.Len() {
		ch, row := d.list.Item(i), lines[head+1+i]
		if !strings.HasSuffix(row, " "+ch.DepositAddress) {
			t.Errorf("%s's address %s is not drawn whole at 60 columns: %q\n%s", ch.Chain, ch.DepositAddress, row, v)
		}
	}
}

// TestFilterTakesPastes: while the chain filter is typed, a bracketed paste
// goes into it like typed keys (it used to be dropped).
func TestFilterTakesPastes(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := New(app).(*depositScreen)
	screentest.FilterTakesPaste(t, "deposit", d, &d.list)
}

// TestKeyNeverKept: a private key typed or pasted into the chain filter is
// cleared and said, never shown (issue 17 item 7).
func TestKeyNeverKept(t *testing.T) {
	app, _ := screentest.LoggedInApp(t)
	d := New(app).(*depositScreen)
	screentest.RequireKeyCleared(t, app, d, screentest.KeyField{Name: "chain filter", Focus: d.list.StartFilter, Value: d.list.Filter})
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

// TestDepositNamesOnlyKeysThatAct: the row, the address and the QR line of
// a chain with no address say to press g only while g generates one: not
// while a generation runs (g is off until it answers), nor while another
// chain is selected (g is that chain's: the first screen's SOLANA row said
// to press g, which said ARBITRUM has an address), the QR shown or not.
func TestDepositNamesOnlyKeysThatAct(t *testing.T) {
	for _, qr := range []bool{false, true} {
		d, _ := loadedDeposit(t, 120, 38, sandbox.Options{})
		if qr { // shown on the first chain, it stays on
			d.Update(screentest.Key("enter"))
		}
		acts := func(k string) bool { return screentest.Offers(d.KeyMap(), k) }
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, the first chain", qr), d.View(), acts)
		d.Update(screentest.Key("end")) // SOLANA, no address yet
		if v := ansi.Strip(d.View()); qr != strings.Contains(v, "No QR code until") {
			t.Fatalf("QR %v:\n%s", qr, v)
		}
		if keys := screentest.NamedKeys(d.View()); !slices.Contains(keys, "g") {
			t.Fatalf("QR %v, idle: names %v, not g:\n%s", qr, keys, ansi.Strip(d.View()))
		}
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, idle", qr), d.View(), acts)
		d.Update(screentest.Key("g")) // its answer not delivered: generating
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, generating", qr), d.View(), acts)
		// Another chain's generation runs (the sandbox has one chain on
		// demand): this one's row and address name no g either.
		d.generating = "TRON"
		screentest.RequireNamedKeysAct(t, fmt.Sprintf("QR %v, another generating", qr), d.View(), acts)
	}
}
