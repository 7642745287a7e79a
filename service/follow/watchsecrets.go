package follow

import (
	"errors"
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// withoutSecrets is kept but the ids that are together a wallet's secret,
// one a line as ParseQuoteIDs reads them (a recovery phrase's numbered
// lines, a key's halves): each a token alone, an earlier version kept and
// asked them, and a board file read back would ask them again.
func withoutSecrets(kept []Kept) []Kept {
	secret := secretLines(kept)
	out := kept[:0]
	for i, k := range kept {
		if !secret[i] {
			out = append(out, k)
		}
	}
	return out
}

// secretLines says, for each of kept, whether its id is part of a wallet
// secret's shape that the ids make one a line (withoutSecrets).
func secretLines(kept []Kept) []bool {
	lines := make([]string, len(kept))
	for i, k := range kept {
		lines[i] = k.QuoteID
	}
	text := strings.Join(lines, "\n")
	keys := linesTouched(lines, safetext.KeySpans(MaskHashes(text)))
	secrets := linesTouched(lines, safetext.WalletSecretSpans(text))
	for i := range keys {
		keys[i] = keys[i] || secrets[i]
	}
	return keys
}

// secretIDs are the ids of kept, every one the file holds for an
// environment, that are a wallet secret's shape: together (secretLines),
// or alone (exchange.CheckQuoteID's ErrKeyShape, which Load drops unseen).
func secretIDs(kept []Kept) []string {
	var out []string
	for i, secret := range secretLines(kept) {
		if secret || errors.Is(exchange.CheckQuoteID(kept[i].QuoteID), exchange.ErrKeyShape) {
			out = append(out, kept[i].QuoteID)
		}
	}
	return out
}

// SecretsDropped is what LoadClean found: the board's file held IDs ids of
// a wallet secret's shape (a recovery phrase's words, a key's halves),
// which an earlier version kept; none is returned, and the file was
// rewritten without them, or could not be (Unwritten: why; they are still
// on disk). Read is what else of the file could not be read, as Load says
// it. It never holds the ids.
type SecretsDropped struct {
	IDs       int
	Unwritten error
	Read      error
}

func (e *SecretsDropped) Error() string {
	if e.Unwritten != nil {
		return fmt.Sprintf("the watch board's file holds %d ids of a wallet secret's shape that an earlier version kept; they are not shown, but the file could not be rewritten without them: %v", e.IDs, e.Unwritten)
	}
	return fmt.Sprintf("the watch board's file held %d ids of a wallet secret's shape that an earlier version kept; it was rewritten without them", e.IDs)
}

func (e *SecretsDropped) Unwrap() error { return e.Read }

// LoadClean is Load, and then the file rewritten without the ids of a
// wallet secret's shape it holds, in every environment, so that none stays
// on disk: said once (*SecretsDropped), since the file holds none after.
// Load alone drops them from what it returns and leaves the file: a face
// that reads the board's file and cannot say this reads it so.
func (w *WatchFile) LoadClean() ([]Kept, error) {
	kept, envs, err := w.load()
	n := 0
	for _, e := range envs {
		n += len(secretIDs(e.kept()))
	}
	if n == 0 {
		return kept, err
	}
	dropped := &SecretsDropped{IDs: n, Read: err}
	if m, werr := w.rewriteWithoutSecrets(); werr != nil {
		dropped.Unwritten = fmt.Errorf("watch board file %s: %w", safetext.Shown(w.Path), werr)
	} else {
		dropped.IDs = m
	}
	return kept, dropped
}

// rewriteWithoutSecrets rewrites the file, read again under the lock every
// svcwallet process takes to change it, without the ids secretIDs finds,
// and returns how many it left out. What of the file cannot be read is
// left out too, as a compaction does (readBack).
func (w *WatchFile) rewriteWithoutSecrets() (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.mirror = nil // known again below, once rewritten
	unlock, err := osguard.LockBeside(w.Path, osguard.Wait{Doing: "rewriting the watch board " + safetext.Shown(w.Path)})
	if err != nil {
		return 0, err
	}
	defer unlock()
	envs, err := readBack(w.Path)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range envs {
		for _, id := range secretIDs(e.kept()) {
			e.drop(id)
			n++
		}
	}
	size, last, err := envs.rewrite(w.Path)
	if err != nil {
		return 0, err
	}
	seen, err := statOf(w.Path)
	if err != nil {
		return 0, err
	}
	w.mirror, w.end, w.seen, w.last = envs, size, seen, last
	w.compactAt = max(2*size, minCompact)
	return n, nil
}
