package board

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/tui"
)

// The board's rows: ids added (typed or pasted), cleared and put back,
// kept in the state directory, and exported.

// errNoIDs is said when enter is pressed on an empty field. It speaks of
// the field, so it goes when the field loses the keys (typeIDs).
var errNoIDs error = exchange.UserError{Text: "Type or paste a quote id first: it is in the withdrawal's confirmation, or ask the user for it"}

// addTyped follows the ids typed or pasted in the field.
func (b *boardScreen) addTyped() tea.Cmd {
	text := b.input.Value()
	if strings.TrimSpace(text) == "" {
		b.err = errNoIDs
		return nil
	}
	b.input.SetValue("")
	return b.addText(text)
}

// selectedHash is the payout hash of the selected row, "" when none.
func (b *boardScreen) selectedHash() string {
	r, ok := b.list.Selected()
	if b.input.Focused() || !ok {
		return ""
	}
	return r.Last.WithdrawTxHash
}

// addText adds the ids in text, read as `svcwallet status -` reads its
// own (follow.ParseQuoteIDs), but for the spaces, commas and semicolons
// that may separate them too, and only pieces of a generated id's shape
// (follow.CheckTypedID) or this account's own: words typed here by
// mistake are refused, never asked or kept. A payout hash or transfer id
// adds the withdrawal this machine has seen with it (follow.Known), and
// is never asked. Malformed ids are said, words only counted; a line with
// a private key's shape is dropped, the others kept. Once ids are added
// the board has the keys, so what is typed next is not taken for more ids.
func (b *boardScreen) addText(text string) tea.Cmd {
	ids, lookups, bad := follow.ParseQuoteIDs(text, true)
	words := 0
	client := b.app.Client()
	// The session's credential, alone or in a transfer id's shape, is never
	// asked, kept, shown nor said as not seen; the rest is still added.
	ownSecret := follow.RefuseOwnSecret(ids, lookups, client.OwnSecret)
	ids = slices.DeleteFunc(ids, client.OwnSecret)
	lookups = slices.DeleteFunc(lookups, func(l follow.Lookup) bool { return client.OwnSecret(l.Text) })
	ids = slices.DeleteFunc(ids, func(id string) bool {
		if _, own := b.sched.Record(id); own || follow.CheckTypedID(id) == nil {
			return false
		}
		words++
		return true
	})
	var found []foundID
	var unseen []follow.Lookup
	for _, l := range lookups {
		f, err := b.known.Find(l, client.OwnSecret)
		if err != nil {
			unseen = append(unseen, l)
			continue
		}
		fresh := slices.DeleteFunc(slices.Clone(f.QuoteIDs), func(id string) bool { return slices.Contains(ids, id) })
		ids = append(ids, fresh...)
		if len(fresh) > 0 || len(f.Others) > 0 {
			found = append(found, foundID{l, f})
		}
	}
	kept := make([]follow.Kept, len(ids))
	for i, id := range ids {
		kept[i] = follow.Kept{QuoteID: id}
	}
	added, tooMany := b.put(kept)
	b.err = nil
	if said := strings.TrimSpace(sentence(ownSecret) + refusedIDs(bad, words) + notSeen(unseen) + sentence(tooMany)); said != "" {
		b.err = exchange.UserError{Text: said}
	}
	var toast tea.Cmd
	if len(found) > 0 {
		said := make([]string, len(found))
		for i, f := range found {
			said[i] = f.said(b.rows)
		}
		toast = tui.ShowInfo(strings.Join(said, "; "))
	}
	if len(added) == 0 {
		if toast == nil && b.err == nil {
			toast = b.alreadyOn(ids)
		}
		return toast
	}
	return tea.Batch(toast, b.typeIDs(false), b.saveNow(added...), b.kick())
}

// alreadyOn says that ids, none added, are each on the board already: a
// column pasted again changed nothing, and said nothing.
func (b *boardScreen) alreadyOn(ids []string) tea.Cmd {
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	if len(ids) == 0 || slices.ContainsFunc(ids, func(id string) bool { return b.rows[id] == nil }) {
		return nil
	}
	if len(ids) == 1 {
		return tui.ShowInfo("Already on the board: " + ids[0] + "; nothing added")
	}
	return tui.ShowInfo(fmt.Sprintf("Already on the board: all %d withdrawals; nothing added", len(ids)))
}

// foundID is the quote id a payout hash or transfer id was found to be,
// or asked as (!seen).
type foundID struct {
	l follow.Lookup
	f follow.Found
}

// said says what was found (follow.Found.Said: every withdrawal a shared
// payout hash names, and one another account's), and what was left off
// the board when it did not fit (follow.Room): the board then holds no
// row of it.
func (f foundID) said(on map[string]*boardRow) string {
	full := slices.ContainsFunc(f.f.QuoteIDs, func(id string) bool { return on[id] == nil })
	switch {
	case f.f.Seen && full && len(f.f.QuoteIDs) == 1 && len(f.f.Others) == 0:
		return f.f.Said(kit.LookupName(f.l)) + ", not added: the board is full"
	case f.f.Seen && full:
		return f.f.Said(kit.LookupName(f.l)) + "; not all added: the board is full"
	case f.f.Seen:
		return f.f.Said(kit.LookupName(f.l))
	case !full: // asked as the quote id it may be: both facts said
		return kit.LookupName(f.l) + " is no withdrawal's seen here, so it is asked as the quote id it may be (History on the machine that made it lists the quote id)"
	}
	return kit.LookupName(f.l) + " is no withdrawal's seen here, and was not added as the quote id it may be: the board is full"
}

// notSeen says which payout hashes and transfer ids this machine has not
// seen (follow.NotSeenSentence) and where the console lists quote ids; ""
// for none.
func notSeen(unseen []follow.Lookup) string {
	if len(unseen) == 0 {
		return ""
	}
	return safetext.Capitalized(follow.NotSeenSentence(unseen...)) + " (and in History on the machine that made it). "
}

// sentence places a refusal of the service's (the session's credential
// given as an id, follow.ErrOwnSecretGiven; ids past follow.MaxFollowed)
// as a sentence; "" for none.
func sentence(err error) string {
	if err == nil {
		return ""
	}
	return safetext.Capitalized(err.Error()) + ". "
}

// refusedIDs says what of a paste or typed line was not taken: the
// malformed ids, cleaned and cut (a key's shape never repeated), and how
// many words, never repeated (follow.ErrTypedWord).
func refusedIDs(bad []follow.MalformedID, words int) string {
	if len(bad) == 0 && words == 0 {
		return ""
	}
	var said []string
	// The generated ids' shape is said only of what was refused for its
	// shape: a credential's refusal is no matter of shape.
	shape, shortened := words > 0, false
	var keys []string // refused for a key's shape: their next step is HashAdvice's
	// A secret's lines are said once, where the first was, with how many:
	// a numbered phrase's 12 lines each said it, the message cut at the 2nd.
	secretAt, secrets := -1, 0
	// A row's refusal, or hex ids' that are a key's shape together, names
	// its lines once (follow.LineRefusal): never the text.
	var lines []string
	for _, m := range bad {
		if line, ok := follow.LineRefusal(m, false); ok {
			if !slices.Contains(lines, line) {
				lines = append(lines, line)
			}
			continue
		}
		switch {
		case errors.Is(m.Err, exchange.ErrSecretShape): // an ErrKeyShape too, worded as what it is
			if secrets++; secretAt < 0 {
				secretAt, said = len(said), append(said, "")
			}
			continue
		case errors.Is(m.Err, exchange.ErrKeyShape):
			said, keys = append(said, "(a private key's shape, not shown)"), append(keys, m.Text)
			continue
		case errors.Is(m.Err, exchange.ErrShortened):
			shortened = true
		default:
			shape = true
		}
		said = append(said, safetext.IDQuoted(m.Text))
	}
	if secrets == 1 {
		said[secretAt] = "(a recovery phrase's or a key's shape, not shown)"
	} else if secrets > 1 {
		said[secretAt] = fmt.Sprintf("(%d lines: a recovery phrase's or a key's shape, not shown)", secrets)
	}
	if words > 0 {
		said = append(said, fmt.Sprintf("%d %s (not shown)", words, kit.Plural(words, "word", "words")))
	}
	rule := ""
	if shape {
		rule = safetext.Capitalized(follow.ErrTypedWord.Error()) + "; a # starts a comment. "
	}
	if shortened {
		rule += sentence(exchange.ErrShortened)
	}
	// The next step status and plain mode give: a TRON hash's 0x, or the
	// hash a digit too long.
	if len(keys) > 0 {
		rule += safetext.Capitalized(follow.HashAdvice(keys...)) + ". "
	}
	out := ""
	if len(said) > 0 {
		out = "Not a quote id, not added: " + layout.Truncate(strings.Join(said, ", "), 60, "…") + ". " + rule
	}
	for _, line := range lines {
		out += "Not added: " + line + ". "
	}
	return out
}

// put follows what is kept of ids not on the board yet, as new rows after
// the others, as many as it has room for (follow.Room); it returns the
// rows it added and the refusal of the rest.
func (b *boardScreen) put(kept []follow.Kept) ([]*boardRow, error) {
	now, client := b.app.Common.Now(), b.app.Client()
	fresh := make([]follow.Kept, 0, len(kept))
	seen := make(map[string]bool, len(kept))
	for _, k := range kept {
		// A credential read back from the file (saved before it was
		// refused, or planted) is never shown nor asked.
		if _, ok := b.rows[k.QuoteID]; ok || seen[k.QuoteID] || client.OwnSecret(k.QuoteID) {
			continue
		}
		seen[k.QuoteID] = true
		fresh = append(fresh, k)
	}
	n, tooMany := follow.Room(len(b.rows), len(fresh))
	var added []*boardRow
	for _, k := range fresh[:n] {
		b.sched.AddKept(k, now)
		b.known.AddKept(k, b.as.AccountID)
		added = append(added, b.follow(k.QuoteID, b.seq))
		b.seq++
	}
	if len(added) > 0 {
		b.list.SetItems(append(slices.Clone(b.list.Items()), added...))
	}
	return added, tooMany
}

// follow makes the row of id, followed by the scheduler, and counts it.
func (b *boardScreen) follow(id string, seq int) *boardRow {
	f, _ := b.sched.Get(id)
	label := f.Outcome().Name
	r := &boardRow{seq: seq, Followed: f, label: label, rank: stateRank[label]}
	if rec, own := b.sched.Record(id); own {
		r.dest = rec.Intent.ToAddress
	}
	b.rows[id] = r
	b.tally.count(r, 1)
	return r
}

// drop takes rows off the board, keeping them for one undo, and says so.
func (b *boardScreen) drop(rows []*boardRow, said string) tea.Cmd {
	for _, r := range rows {
		b.sched.Remove(r.QuoteID)
		b.tally.count(r, -1)
		delete(b.rows, r.QuoteID)
		delete(b.marked, r.QuoteID)
	}
	if len(rows) == 1 {
		b.list.Remove(rows[0])
	} else {
		b.list.SetItems(slices.DeleteFunc(slices.Clone(b.list.Items()), func(r *boardRow) bool { return b.rows[r.QuoteID] != r }))
	}
	b.replan()
	b.undo = rows
	b.cleared = said + ": u puts " + kit.Plural(len(rows), "it", "them") + " back"
	if len(b.rows) == 0 {
		return b.saveNow(rows...) // the empty board's body says it: once
	}
	return tea.Batch(b.saveNow(rows...), tui.ShowInfo(b.cleared))
}

// clearWhere drops every row that is what, filtered out or not, and says
// how many of each outcome went.
func (b *boardScreen) clearWhere(is func(*boardRow) bool) tea.Cmd {
	var rows []*boardRow
	by := map[string]int{}
	for _, r := range b.list.Items() {
		if is(r) {
			rows = append(rows, r)
			by[r.label]++
		}
	}
	var what []string
	for _, label := range slices.SortedFunc(maps.Keys(by), func(a, c string) int { return cmp.Compare(stateRank[a], stateRank[c]) }) {
		what = append(what, fmt.Sprintf("%d %s", by[label], strings.ToLower(label)))
	}
	return b.drop(rows, "Cleared "+strings.Join(what, ", ")+" "+kit.Plural(len(rows), "withdrawal", "withdrawals"))
}

// putBack undoes the last removal: its rows come back as they were, in
// the order added; the final ones are not asked again. It puts back all
// of them or none (follow.RoomToPutBack), the undo kept until they fit.
func (b *boardScreen) putBack() tea.Cmd {
	if err := b.roomToPutBack(); err != nil {
		return tui.ShowInfo(safetext.Capitalized(err.Error()) + "; " + b.makesRoom() + " make room, replacing this as the last removal")
	}
	now := b.app.Common.Now()
	var back []*boardRow
	for _, r := range b.undo {
		if _, ok := b.rows[r.QuoteID]; !ok { // not added again since
			b.sched.AddKept(r.Kept(), now)
			back = append(back, b.follow(r.QuoteID, r.seq))
		}
	}
	b.undo, b.cleared = nil, ""
	b.list.SetItems(append(slices.Clone(b.list.Items()), back...))
	said := fmt.Sprintf("Put back %d %s", len(back), kit.Plural(len(back), "withdrawal", "withdrawals"))
	return tea.Batch(b.saveNow(back...), b.kick(), tui.ShowInfo(said))
}

// roomToPutBack is nil when the last removal's rows not on the board again
// all fit beside it. They are counted only near the bound: the footer asks
// at every frame.
func (b *boardScreen) roomToPutBack() error {
	back := len(b.undo)
	if len(b.rows)+back > follow.MaxFollowed {
		back = 0
		for _, r := range b.undo {
			if _, ok := b.rows[r.QuoteID]; !ok {
				back++
			}
		}
	}
	return follow.RoomToPutBack(len(b.rows), back)
}

// noRoomToPutBack answers u while a removal does not fit (putBack says so).
func (b *boardScreen) noRoomToPutBack() func() tea.Cmd {
	if len(b.undo) == 0 {
		return nil
	}
	return b.putBack
}

// makesRoom names, as the footer does, the keys that now remove ended or
// not-found rows, or x when none does.
func (b *boardScreen) makesRoom() string {
	var keys []string
	for _, kb := range b.keys() {
		if h := kb.Key.Help(); kb.On && (h == boardKeys.ClearDone.Help() || h == boardKeys.ClearFinal.Help() || h == boardKeys.ClearNotFound.Help()) {
			keys = append(keys, h.Key+" "+h.Desc)
		}
	}
	if h := boardKeys.Remove.Help(); len(keys) == 0 {
		return h.Key + " " + h.Desc
	}
	return strings.Join(keys, ", ")
}
