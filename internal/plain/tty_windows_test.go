package plain

import (
	"encoding/binary"
	"testing"

	xwindows "github.com/charmbracelet/x/windows"
	"golang.org/x/sys/windows"
)

// record is a console input record of kind, with a key's down flag.
func record(kind uint16, down bool) xwindows.InputRecord {
	r := xwindows.InputRecord{EventType: kind}
	if down {
		binary.LittleEndian.PutUint32(r.Event[0:4], 1)
	}
	return r
}

// TestDiscardCountsKeysPressed: the console's discard says it held typing
// only for a key pressed: the release of the Enter before, a focus or a
// mouse record is none.
func TestDiscardCountsKeysPressed(t *testing.T) {
	released, focus, mouse := record(windows.KEY_EVENT, false), record(windows.FOCUS_EVENT, true), record(windows.MOUSE_EVENT, true)
	if keyPressed(nil) || keyPressed([]xwindows.InputRecord{released, focus, mouse}) {
		t.Error("a release, a focus or a mouse record was counted as typing")
	}
	if !keyPressed([]xwindows.InputRecord{released, record(windows.KEY_EVENT, true)}) {
		t.Error("a key pressed was not counted")
	}
}
