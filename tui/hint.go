package tui

import (
	"sync"

	"charm.land/bubbles/v2/key"
)

// shortWords are the short wordings of the hints made by WithHelp, by
// the whole hint they shorten.
var shortWords sync.Map // key.Help → string

// WithHelp is key.WithHelp for a hint that reads whole in the full help
// and in a footer with room ("ctrl+d fill in the demo key"), and says
// short where a narrow footer needs the room ("ctrl+d fill in"): the
// short words alone read poorly, so they are never the only ones.
func WithHelp(k, desc, short string) key.BindingOpt {
	shortWords.Store(key.Help{Key: k, Desc: desc}, short)
	return key.WithHelp(k, desc)
}

// shortened is bs with each hint made by WithHelp in its short words.
func shortened(bs []key.Binding) []key.Binding {
	out := make([]key.Binding, len(bs))
	for i, b := range bs {
		if short, ok := shortWords.Load(b.Help()); ok {
			b.SetHelp(b.Help().Key, short.(string))
		}
		out[i] = b
	}
	return out
}
