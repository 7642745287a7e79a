package deposit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

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
