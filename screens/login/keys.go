package login

import (
	"path/filepath"
	"strings"
	"time"

	"svcwallet/signer"
	"svcwallet/tui"
)

// keystorePick is the login's choice among the keystore's keys: one of the
// listed keys, or (the last choice) another file whose path is typed.
type keystorePick struct {
	entries []signer.KeystoreEntry
	pick    int // len(entries): another file
}

// other reports whether the path is typed rather than picked.
func (k keystorePick) other() bool { return k.pick >= len(k.entries) }

// path is the chosen key's file, or typed for another file.
func (k keystorePick) path(typed string) string {
	if k.other() {
		return strings.TrimSpace(typed)
	}
	return k.entries[k.pick].Path
}

// options names every choice: address (shortened when short) and creation
// date, then another file.
func (k keystorePick) options(short bool) []string {
	out := make([]string, 0, len(k.entries)+1)
	for _, e := range k.entries {
		label := e.Address.Hex()
		if short {
			label = tui.ShortAddress(e.Address.Hex())
		}
		if at, ok := keyCreated(e.Path); ok {
			label += " · " + at.Format("2006-01-02")
		}
		out = append(out, label)
	}
	return append(out, "another file…")
}

// file is the chosen key's file name, for the note under the choice.
func (k keystorePick) file() string {
	if k.other() {
		return ""
	}
	return filepath.Base(k.entries[k.pick].Path)
}

// keyCreated reads the creation time from a geth-style file name,
// UTC--2026-03-14T09-26-53.000000000Z--<address>.
func keyCreated(path string) (time.Time, bool) {
	name, ok := strings.CutPrefix(filepath.Base(path), "UTC--")
	if !ok {
		return time.Time{}, false
	}
	stamp, _, ok := strings.Cut(name, "Z--")
	if !ok {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02T15-04-05.999999999", stamp)
	return t, err == nil
}
