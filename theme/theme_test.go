package theme

import (
	"testing"
)

// Under NO_COLOR the renderer drops every colour, so the styles that carry
// meaning must also carry a text attribute.
func TestMeaningSurvivesWithoutColour(t *testing.T) {
	for _, dark := range []bool{true, false} {
		s := New(dark)
		if s.IsDark != dark {
			t.Errorf("New(%v).IsDark = %v", dark, s.IsDark)
		}
		if !s.Selected.GetReverse() {
			t.Errorf("dark=%v: Selected must use reverse video", dark)
		}
		if !s.Danger.GetBold() || !s.Danger.GetUnderline() {
			t.Errorf("dark=%v: Danger must be bold and underlined", dark)
		}
		if !s.Mark.GetReverse() {
			t.Errorf("dark=%v: Mark must use reverse video", dark)
		}
		if !s.ErrorToast.GetBold() || !s.Warning.GetBold() || !s.Heading.GetBold() {
			t.Errorf("dark=%v: errors, warnings and headings must be bold", dark)
		}
		if s.Panel.GetBorderStyle() == s.PanelFocused.GetBorderStyle() {
			t.Errorf("dark=%v: a focused panel needs a different border, not only a colour", dark)
		}
	}
}

func TestLightAndDarkDiffer(t *testing.T) {
	d, l := New(true), New(false)
	if d.Value.GetForeground() == l.Value.GetForeground() {
		t.Error("value text has the same colour on light and dark backgrounds")
	}
	if d.TopBar.GetBackground() == l.TopBar.GetBackground() {
		t.Error("top bar has the same background on light and dark backgrounds")
	}
}
