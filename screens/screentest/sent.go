package screentest

import (
	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/svcwallet/svcwallet/tui"
)

// Sent is what Bubble Tea reads from a terminal that wrote seq: its key
// presses and releases, decoded as its input reader decodes them. A
// terminal that speaks the kitty keyboard protocol with event types writes
// a held Enter's repeat as "\x1b[13;1:2u" (IsRepeat), its release as
// "\x1b[13;1:3u".
func Sent(seq string) []tea.Msg {
	var dec uv.EventDecoder
	var out []tea.Msg
	for b := []byte(seq); len(b) > 0; {
		n, ev := dec.Decode(b)
		if n == 0 {
			break
		}
		b = b[n:]
		switch e := ev.(type) {
		case uv.KeyPressEvent:
			out = append(out, tea.KeyPressMsg(e))
		case uv.KeyReleaseEvent:
			out = append(out, tea.KeyReleaseMsg(e))
		}
	}
	return out
}

// SendTo hands s what a terminal that wrote seq sent (Sent), then the
// terminal's answers to what the keys' settling asked (tui.Settle), which
// come after every byte of seq.
func SendTo(s tui.Screen, seq string) tui.Screen {
	var asked []tui.Tag
	for _, m := range Sent(seq) {
		var cmd tea.Cmd
		s, cmd = s.Update(m)
		if tag, _, ok := Settling(cmd); ok {
			asked = append(asked, tag)
		}
	}
	for _, tag := range asked { // answered after every key of seq
		s, _ = s.Update(tui.SettledMsg{Tag: tag})
	}
	return s
}

// SendSeq sends the console what a terminal that wrote seq sent (Sent).
func (c *Console) SendSeq(seq string) {
	for _, m := range Sent(seq) {
		c.Send(m)
	}
}
