package board

import (
	"errors"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/tui"
)

// The board's file (follow.WatchFile): what changed is appended, at once
// for ids added or removed, at most every boardSaveEvery for answers; what
// is still owed when the console ends is written then (kit.Flushes).

// saveNow saves rows at once, or as soon as the save out is done.
func (b *boardScreen) saveNow(rows ...*boardRow) tea.Cmd {
	for _, r := range rows {
		b.unsaved[r.QuoteID] = true
	}
	if b.saving {
		return nil
	}
	return b.save()
}

// saveSoon saves the rows changed when no save is out and the last began
// boardSaveEvery ago, else once the wait is over: at the hand-over of the
// span of asks out, if one is (took), in the wake-up that brings its
// answers, else on a timer.
func (b *boardScreen) saveSoon() tea.Cmd {
	if len(b.unsaved) == 0 || b.saving || b.saveDue {
		return nil
	}
	if wait := b.saved.Add(boardSaveEvery).Sub(b.app.Common.Now()); wait > 0 {
		if b.asking != nil {
			return nil
		}
		b.saveDue = true
		return b.app.After(wait, boardSaveMsg{tag: b.tag})
	}
	return b.save()
}

// save appends what is known of each row changed since the last save, and
// the ids removed, in a Cmd: it costs what changed, however many rows the
// board holds.
func (b *boardScreen) save() tea.Cmd {
	ids := b.owed(b.unsaved)
	b.saving, b.saved, b.pending = true, b.app.Common.Now(), b.unsaved
	b.unsaved = map[string]bool{}
	put, drop := b.changes(ids)
	file, tag := b.file, b.tag
	return func() tea.Msg { return boardSavedMsg{tag: tag, ids: ids, err: file.Append(put, drop)} }
}

// savedAll takes the end of a save: the ids of a failed one are owed again.
func (b *boardScreen) savedAll(msg boardSavedMsg) {
	b.saving, b.pending = false, nil
	if msg.err != nil {
		for _, id := range msg.ids {
			b.unsaved[id] = true
		}
	}
}

// owed are the ids in set, in no order that matters.
func (b *boardScreen) owed(set map[string]bool) []string {
	ids := make([]string, 0, len(set))
	for id := range set {
		ids = append(ids, id)
	}
	return ids
}

// changes are what to keep of ids: what is known of those on the board,
// in the order added (the file keeps the order it first sees), and the
// others to forget.
func (b *boardScreen) changes(ids []string) (put []follow.Kept, drop []string) {
	var rows []*boardRow
	for _, id := range ids {
		if r, ok := b.rows[id]; ok {
			rows = append(rows, r)
		} else {
			drop = append(drop, id)
		}
	}
	slices.SortFunc(rows, func(x, y *boardRow) int { return x.seq - y.seq })
	for _, r := range rows {
		put = append(put, r.Kept())
	}
	return put, drop
}

// Owed writes, as the board leaves the stack (tui.Owing), what it owes its
// file: the answers waiting for boardSaveEvery, whose timer would find no
// board, so the file, which other boards and commands read, lacked them
// until the console ended. The write is one the console owes (kit.Owed):
// made once, by this command, by the console's end or by flush if the
// next board of this file opens first, and tried again there if it
// failed. A write that fails is said.
func (b *boardScreen) Owed() tea.Cmd {
	ids := append(b.owed(b.unsaved), b.owed(b.pending)...)
	if len(ids) == 0 {
		return nil
	}
	put, drop := b.changes(ids)
	file := b.file
	last := b.app.Writes.OweBoard(func() error { return file.Append(put, drop) })
	b.left = append(b.left, last)
	b.unsaved, b.pending = map[string]bool{}, nil
	return func() tea.Msg {
		if err := last.Make(); err != nil {
			return tui.ErrorMsg{Err: exchange.UserError{Text: "The watch board's last changes could not be saved (" + err.Error() + "); they are tried again when it opens or the console ends: check the state directory", Cause: err}}
		}
		return nil
	}
}

// flush writes what the board still owes its file: its writes as it left
// if not made yet (Owed), the rows changed since the last save, and those
// of a save still out, which may not finish before the process ends. It
// runs once nothing else runs on the board: when the console ends (SIGHUP,
// SIGTERM or q), or before another board of this file loads it.
func (b *boardScreen) flush() error {
	var errs []error
	for _, last := range b.left {
		errs = append(errs, last.Make())
	}
	ids := append(b.owed(b.unsaved), b.owed(b.pending)...)
	put, drop := b.changes(ids)
	return errors.Join(append(errs, b.file.Append(put, drop))...)
}

// secretsDroppedSaid says, once, that the board's file held ids of a
// wallet secret's shape an earlier version kept (follow.SecretsDropped):
// rewritten without them, or not, which is an error, since they are still
// on disk. msg's err is left what else of the file could not be read.
func secretsDroppedSaid(msg *boardLoadedMsg) tea.Cmd {
	var dropped *follow.SecretsDropped
	if !errors.As(msg.err, &dropped) {
		return nil
	}
	msg.err = dropped.Read
	what := fmt.Sprintf("%d ids an earlier version kept that together are a recovery phrase's or a key's shape (never shown nor asked)", dropped.IDs)
	if dropped.Unwritten != nil {
		return tui.ShowError(exchange.UserError{Text: "The board's file still holds " + what + ": it could not be rewritten without them (" + dropped.Unwritten.Error() + "); check the state directory, then open the board again", Cause: dropped})
	}
	return tui.ShowInfo("Removed from the board's file: " + what + ".")
}
