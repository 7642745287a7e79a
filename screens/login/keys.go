package login

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
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

// clefAccountsMsg answers clef's account_list.
type clefAccountsMsg struct {
	endpoint string
	accounts []common.Address
	err      error
}

// clefPick is the login's choice among clef's accounts, asked for in a Cmd
// when clef is the chosen key source.
type clefPick struct {
	endpoint string // whose accounts are asked for or known; "" before
	asking   bool
	accounts []common.Address
	err      error
	pick     int
	prefer   common.Address // the config's account, picked when clef holds it
}

// ask starts account_list at endpoint (clef may ask its user to approve
// the listing), waiting at most wait.
func (c *clefPick) ask(endpoint string, wait time.Duration, prefer common.Address, parent context.Context) tea.Cmd {
	*c = clefPick{endpoint: endpoint, asking: true, prefer: prefer}
	return func() tea.Msg {
		addrs, err := signer.NewClef(endpoint, wait).Accounts(parent)
		return clefAccountsMsg{endpoint: endpoint, accounts: addrs, err: err}
	}
}

// answered takes clef's answer, if it is for the endpoint asked.
func (c *clefPick) answered(m clefAccountsMsg) {
	if m.endpoint != c.endpoint {
		return
	}
	c.asking, c.accounts, c.err, c.pick = false, m.accounts, m.err, 0
	if m.err == nil && len(m.accounts) == 0 {
		c.err = errors.New("clef at " + m.endpoint + " holds no account")
	}
	for i, a := range m.accounts {
		if a == c.prefer {
			c.pick = i
		}
	}
}

// retry forgets a failed answer, so ask runs again.
func (c *clefPick) retry(ask func() tea.Cmd) tea.Cmd {
	if c.err == nil {
		return nil
	}
	c.endpoint = ""
	return ask()
}

// chosen is the picked account, or why there is none yet.
func (c *clefPick) chosen() (common.Address, error) {
	switch {
	case c.asking:
		return common.Address{}, exchange.UserError{Text: "Still asking clef for its accounts: approve the listing in clef if it asks"}
	case c.err != nil:
		return common.Address{}, exchange.UserError{Text: c.err.Error() + " — asking again", Cause: c.err}
	}
	return c.accounts[c.pick], nil
}

// options are clef's accounts, or what stands for them while unknown.
func (c *clefPick) options(short bool) []string {
	if c.asking || c.err != nil || len(c.accounts) == 0 {
		return []string{"—"}
	}
	out := make([]string, len(c.accounts))
	for i, a := range c.accounts {
		out[i] = a.Hex()
		if short {
			out[i] = tui.ShortAddress(a.Hex())
		}
	}
	return out
}

// note says where the accounts come from, or what went wrong.
func (c *clefPick) note() kit.Note {
	switch {
	case c.asking:
		return kit.HintNote("asking clef for its accounts (approve the listing in clef if it asks)…")
	case c.err != nil:
		return kit.BadNote(c.err)
	}
	return kit.HintNote("account_list of clef at " + c.endpoint)
}

// commandName names a signing command by its program alone ("command:
// cast …"): any other word may be a secret (a flag's value, a token, a
// password or a mnemonic written into the line), so none is shown.
func commandName(line string) string {
	words, err := signer.SplitCommand(line)
	if err != nil || len(words) == 0 {
		return "the signing command"
	}
	name := "command: " + safetext.Line(filepath.Base(words[0]), 40)
	if len(words) > 1 {
		name += " …"
	}
	return name
}
