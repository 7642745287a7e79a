//go:build !windows

package cli

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/tui"
)

// TestTickedConsoleStops: the console Bubble Tea draws (runTicked) stops
// on ctrl+z and on a stop sent from elsewhere: the terminal given back,
// the job stopped, the terminal taken again once continued, and the model
// told it shows again (a question that signs holds again). Two stops asked
// at once stop it once. It caught no stop: ctrl+z did nothing, and kill
// -TSTP was dropped.
func TestTickedConsoleStops(t *testing.T) {
	var did []string
	s := &tickedStops{asked: make(chan os.Signal, 1),
		stop:    func() { did = append(did, "stop") },
		release: func() error { did = append(did, "release"); return nil },
		restore: func() error { did = append(did, "restore"); return nil }}
	const once = "release stop restore"
	if _, ok := s.filter(nil, tea.KeyPressMsg{Code: 'z', Mod: tea.ModCtrl}).(tui.ShownAgainMsg); !ok || strings.Join(did, " ") != once {
		t.Fatalf("ctrl+z: %s, the model told it shows again: %v", did, ok)
	}
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	if got := s.filter(nil, enter); got != enter {
		t.Fatalf("a key once continued: %v", got)
	}
	// Two kill -TSTP at once: both asked before the first is taken.
	did = nil
	first, second := tickedStopMsg{seen: s.stops.Asked()}, tickedStopMsg{seen: s.stops.Asked()}
	if _, ok := s.filter(nil, first).(tui.ShownAgainMsg); !ok || strings.Join(did, " ") != once {
		t.Fatalf("a stop sent from elsewhere: %s, the model told it shows again: %v", did, ok)
	}
	if got := s.filter(nil, second); got != nil || len(did) != 3 {
		t.Fatalf("the second of two stops asked at once stopped the console again: %T, %s", got, did)
	}
	if _, ok := s.filter(nil, tickedStopMsg{seen: s.stops.Asked()}).(tui.ShownAgainMsg); !ok || len(did) != 6 {
		t.Fatalf("a stop asked once continued: %s", did)
	}
}
