package board

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/tui"
)

// TestBoardWheel (issue 21 item 13): the board asks for the mouse wheel
// only while its rows have the keys, and the wheel moves its cursor.
func TestBoardWheel(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: "q-gone-1 q-gone-2 q-gone-3"})
	br.send(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if br.b.Wheel() {
		t.Fatal("the wheel is asked for while ids are typed")
	}
	br.toList()
	br.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	br.send(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if sel, _ := br.b.list.Selected(); !br.b.Wheel() || sel != br.b.list.Item(2) {
		t.Fatalf("two notches down selected %s, not the third row (wheel %v)", sel.QuoteID, br.b.Wheel())
	}
}

// TestBoardHelp (issue 21 item 13): every key the board's footer could
// offer is a binding that acts, and ? lists every key that acts now with
// the legend of the rows' marks, whole at 80x24 and 120x40, and at 60x20
// over pages that ? turns (nothing cut short).
func TestBoardHelp(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	done := screentest.Seed(t, r, sandbox.DestCompleted)
	var ids []string
	for i := range 40 {
		ids = append(ids, fmt.Sprintf("q-gone-%02d", i))
	}
	br.send(tea.PasteMsg{Content: done + " " + strings.Join(ids, " ")})
	for i := 0; i < 1000 && br.fire(); i++ {
	}
	br.toList()
	br.send(tea.KeyPressMsg{Code: tea.KeyHome})    // a row not found
	br.send(tea.KeyPressMsg{Code: 'x', Text: "x"}) // so u acts too
	root := tui.New(br.b, tui.Options{Theme: "dark", Common: r.App.Common})
	for _, sz := range screentest.GoldenSizes {
		screentest.Feed(root, tea.WindowSizeMsg{Width: sz.W, Height: sz.H})
		// ? opens the help and turns its pages while it says "? more".
		var frames []string
		for page := 1; page == 1 || strings.Contains(strings.Join(strings.Fields(frames[len(frames)-1]), " "), "? more"); page++ {
			screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"})
			frame := ansi.Strip(screentest.CheckFrame(t, root.View().Content, sz.W, sz.H))
			if cut := strings.NewReplacer("q-…", "", "q…", "").Replace(frame); strings.Contains(cut, "…") {
				t.Errorf("%dx%d: page %d of ? is cut short:\n%s", sz.W, sz.H, page, frame)
			}
			name := fmt.Sprintf("%dx%d", sz.W, sz.H)
			if page > 1 {
				name += fmt.Sprintf("-%d", page)
			}
			t.Run(name, func(t *testing.T) { golden.RequireEqual(t, []byte(frame)) })
			frames = append(frames, frame)
			if page > 3 {
				t.Fatalf("%dx%d: ? shows more than 3 pages", sz.W, sz.H)
			}
		}
		frame := strings.Join(frames, "\n")
		listed := strings.Join(strings.Fields(frame), " ")
		for _, b := range br.b.bindings().KeyMap().ShortHelp() {
			if !strings.Contains(listed, b.Help().Key+" "+b.Help().Desc) {
				t.Errorf("%dx%d: ? does not list %q:\n%s", sz.W, sz.H, b.Help().Key+" "+b.Help().Desc, frame)
			}
		}
		for _, want := range []string{"S sort", "e export CSV", "f clear completed", "F clear all ended", "n clear not found", "u undo remove", "• changed since last selected", "! accepted, now CREATED or unknown", "‖ rate limited"} {
			if !strings.Contains(listed, want) {
				t.Errorf("%dx%d: ? does not list %q:\n%s", sz.W, sz.H, want, frame)
			}
		}
		if screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"}); strings.Contains(ansi.Strip(root.View().Content), "close help") {
			t.Errorf("%dx%d: ? on the last page did not close the help", sz.W, sz.H)
		}
	}
}

// TestBoardHeadingFits: the filter being typed is drawn whole at 80
// columns (the heading gives way to it), and at 60 the two heading lines
// drop whole phrases rather than end cut ("reques…").
func TestBoardHeadingFits(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.send(tea.PasteMsg{Content: screentest.Seed(t, r, sandbox.DestCompleted)})
	br.fire()
	br.toList()
	br.b.SetSize(60, 20)
	lines := strings.Split(br.plain(), "\n")
	for _, l := range lines[:2] {
		if strings.HasSuffix(strings.TrimSpace(l), "…") || ansi.StringWidth(l) > 60 {
			t.Errorf("at 60 columns a heading line is cut: %q", l)
		}
	}
	br.b.SetSize(80, 24)
	br.send(tea.KeyPressMsg{Code: '/', Text: "/"})
	for _, c := range "POLYGON-TEST" {
		br.send(tea.KeyPressMsg{Code: c, Text: string(c)})
	}
	if first := strings.Split(br.plain(), "\n")[0]; !strings.Contains(first, "POLYGON-TEST") || ansi.StringWidth(first) > 80 {
		t.Errorf("at 80 columns the filter typed is not drawn whole: %q", first)
	}
}

// TestBoardEmptyWrapsAt60: an empty board's sentence says what to do next
// whole at the smallest size, wrapped rather than cut.
func TestBoardEmptyWrapsAt60(t *testing.T) {
	r := screentest.NewStatusRig(t)
	br := newBoardRig(t, r)
	br.b.SetSize(60, 20)
	v := strings.Join(strings.Fields(br.plain()), " ")
	if !strings.Contains(v, "or press w on History to add this account's.") {
		t.Errorf("at 60 columns the empty board's sentence is cut:\n%s", br.plain())
	}
}

// TestBoardHelpLeavesRowsAt60x20: ? at 60x20 lays the board's keys out in
// as few lines as let every one be read, so the board keeps rows above
// them, the selected one among them, with few keys on (rows not found
// only) or all (a payout hash to copy, rows to clear and one to undo), esc
// back beside them: with few, the help took 13 lines in one tall column
// and left none.
func TestBoardHelpLeavesRowsAt60x20(t *testing.T) {
	for _, all := range []bool{false, true} {
		t.Run(fmt.Sprintf("all_keys_%v", all), func(t *testing.T) {
			r := screentest.NewStatusRig(t)
			br := newBoardRig(t, r)
			var ids []string
			for i := range 5 {
				ids = append(ids, fmt.Sprintf("q-gone-%02d", i))
			}
			done := ""
			if all {
				done = screentest.Seed(t, r, sandbox.DestCompleted)
				ids = append(ids, done)
			}
			br.send(tea.PasteMsg{Content: strings.Join(ids, " ")})
			for i := 0; i < 1000 && br.fire(); i++ {
			}
			root := tui.New(New(r.App), tui.Options{Theme: "dark", Common: r.App.Common})
			screentest.Feed(root, tea.WindowSizeMsg{Width: 60, Height: 20})
			screentest.Feed(root, tui.PushMsg{Screen: br.b})
			screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyTab})
			if all {
				screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyHome})
				screentest.Feed(root, tea.KeyPressMsg{Code: 'x', Text: "x"})
			}
			for range 6 {
				if sel, _ := br.b.list.Selected(); sel.QuoteID == done || !all && sel.QuoteID == "q-gone-04" {
					break
				}
				screentest.Feed(root, tea.KeyPressMsg{Code: tea.KeyDown})
			}
			screentest.Feed(root, tea.KeyPressMsg{Code: '?', Text: "?"})
			frame := ansi.Strip(screentest.CheckFrame(t, root.View().Content, 60, 20))
			listed := strings.Join(strings.Fields(frame), " ")
			for _, b := range br.b.bindings().KeyMap().ShortHelp() {
				if !strings.Contains(listed, b.Help().Key+" "+b.Help().Desc) {
					t.Errorf("? does not list %q:\n%s", b.Help().Key+" "+b.Help().Desc, frame)
				}
			}
			if on := strings.Contains(listed, "C copy payout hash") && strings.Contains(listed, "u undo remove"); on != all {
				t.Errorf("C and u listed %v, want %v:\n%s", on, all, frame)
			}
			rows, selected := 0, false
			for _, l := range strings.Split(frame, "\n") {
				if strings.HasPrefix(l, "  q-") || strings.HasPrefix(l, "› q-") {
					rows++
					selected = selected || strings.HasPrefix(l, "› q-")
				}
			}
			if rows < 3 || !selected {
				t.Errorf("the help leaves %d rows of the board, the selected one shown %v:\n%s", rows, selected, frame)
			}
		})
	}
}
