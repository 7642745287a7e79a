package follow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// The board's file is a log: each line says what changed for one
// environment, so a save costs what changed, not the board (10,000 ids
// are about 1.5 MB). Every svcwallet process appends under one lock
// (journal.LockFile), so two consoles on one state directory keep each
// other's ids; once most of the file is lines later ones replaced, it is
// rewritten whole, one line an environment.

// watchLine is one line of the file: what is known of ids added or
// learned (Put) and ids removed (Drop) for Env; or, as the file was before
// it became a log, every environment's ids (Envs).
type watchLine struct {
	Envs map[string][]Kept `json:"envs,omitempty"`
	Env  string            `json:"env,omitempty"`
	Put  []Kept            `json:"put,omitempty"`
	Drop []string          `json:"drop,omitempty"`
}

// minCompact is the size below which the file is never rewritten.
const minCompact = 256 << 10

// WatchFile is the board's file (WatchlistFile) at Path, for the
// environment Env. Its methods are safe to call from any goroutine.
type WatchFile struct {
	Path, Env string

	mu sync.Mutex
	// compactAt is the size past which Append rewrites the file: twice
	// what it held after the last rewrite, so rewriting costs each
	// appended line a constant share however large the board.
	compactAt int64
}

// Load reads what is kept for Env, in the order added; a missing file is
// an empty board. Every entry is checked as it is read (an id of the
// wrong shape is dropped, a record that fails the checks of an answer is
// dropped and its id kept), and an id is kept once. A part that cannot be
// read (a line cut short by a crash) is skipped and said in the error,
// with what could be read.
func (w *WatchFile) Load() ([]Kept, error) {
	b, err := osguard.ReadStateFile(w.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("watch board file: %w", err)
	}
	envs, err := foldWatchlist(b)
	var out []Kept
	for _, k := range envs[w.Env].kept() {
		if k, ok := k.checked(); ok {
			out = append(out, k)
		}
	}
	if err != nil {
		return out, fmt.Errorf("watch board file %s: %w", w.Path, err)
	}
	return out, nil
}

// Append keeps what is known of put and forgets drop, for Env, in one
// line appended under the lock every svcwallet process takes, synced; a
// put id already kept keeps its place. It costs what it writes, and now
// and then a rewrite of the file (compactAt).
func (w *WatchFile) Append(put []Kept, drop []string) error {
	if len(put) == 0 && len(drop) == 0 {
		return nil
	}
	line, err := json.Marshal(watchLine{Env: w.Env, Put: put, Drop: drop})
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(w.Path), 0o700); err != nil {
		return fmt.Errorf("watch board file: %w", err)
	}
	unlock, err := journal.LockFile(w.Path + ".lock")
	if err != nil {
		return fmt.Errorf("watch board file: %w", err)
	}
	defer unlock()
	size, err := appendLine(w.Path, line)
	if err != nil {
		return fmt.Errorf("watch board file: %w", err)
	}
	if w.compactAt == 0 {
		w.compactAt = max(2*size, minCompact)
	}
	if size <= w.compactAt {
		return nil
	}
	size, err = compactWatchlist(w.Path)
	if err != nil {
		return fmt.Errorf("watch board file: %w", err)
	}
	w.compactAt = max(2*size, minCompact)
	return nil
}

// appendLine appends line to the file at path (made 0600 if missing),
// on a line of its own, synced, and returns the file's size after it.
func appendLine(path string, line []byte) (int64, error) {
	f, err := osguard.OpenPrivate(path, os.O_RDWR|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	// A line cut short by a crash is left to be skipped: this one starts
	// a line of its own.
	if n := fi.Size(); n > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, n-1); err != nil {
			return 0, err
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		return 0, err
	}
	if err := f.Sync(); err != nil {
		return 0, err
	}
	return fi.Size() + int64(len(line)) + 1, nil
}

// compactWatchlist rewrites the file at path with one line an
// environment, what the log comes to, and returns its new size. A part
// that could not be read is dropped with the rewrite.
func compactWatchlist(path string) (int64, error) {
	b, err := osguard.ReadStateFile(path)
	if err != nil {
		return 0, err
	}
	envs, _ := foldWatchlist(b)
	var out bytes.Buffer
	for _, env := range envs.names() {
		line, err := json.Marshal(watchLine{Env: env, Put: envs[env].kept()})
		if err != nil {
			return 0, err
		}
		out.Write(append(line, '\n'))
	}
	if err := osguard.WriteStateFile(path, out.Bytes()); err != nil {
		return 0, err
	}
	return int64(out.Len()), nil
}

// watchEnv is one environment's ids as the log comes to them: the order
// each was first put since it was last dropped, and what is known now.
type watchEnv struct {
	order []string
	at    map[string]int // the index in order of each id kept
	known map[string]Kept
}

func (e *watchEnv) put(k Kept) {
	if _, ok := e.at[k.QuoteID]; !ok {
		e.at[k.QuoteID] = len(e.order)
		e.order = append(e.order, k.QuoteID)
	}
	e.known[k.QuoteID] = k
}

// keep puts k unless its id is kept already: the file of old held each
// id once, and read the first of two.
func (e *watchEnv) keep(k Kept) {
	if _, ok := e.at[k.QuoteID]; !ok {
		e.put(k)
	}
}

func (e *watchEnv) drop(id string) {
	delete(e.at, id)
	delete(e.known, id)
}

// kept is what is known of each id kept, in order.
func (e *watchEnv) kept() []Kept {
	if e == nil {
		return nil
	}
	out := make([]Kept, 0, len(e.known))
	for i, id := range e.order {
		if e.at[id] == i {
			out = append(out, e.known[id])
		}
	}
	return out
}

type watchEnvs map[string]*watchEnv

func (es watchEnvs) env(name string) *watchEnv {
	e, ok := es[name]
	if !ok {
		e = &watchEnv{at: map[string]int{}, known: map[string]Kept{}}
		es[name] = e
	}
	return e
}

// names are the environments, in a fixed order.
func (es watchEnvs) names() []string {
	return slices.Sorted(maps.Keys(es))
}

// foldWatchlist reads the file's lines in order into what they come to
// per environment. Each line is decoded strictly (exchange.Decode: a key
// named twice refuses it); one that cannot be read is skipped, reading
// on from the next line, and counted in the error.
func foldWatchlist(b []byte) (watchEnvs, error) {
	envs := watchEnvs{}
	skipped := 0
	for rest := b; len(bytes.TrimSpace(rest)) > 0; {
		dec := json.NewDecoder(bytes.NewReader(rest))
		var raw json.RawMessage
		var line watchLine
		err := dec.Decode(&raw)
		if err == nil {
			err = exchange.Decode(raw, &line)
		}
		if err != nil {
			skipped++
			next := bytes.Index(rest[1:], []byte("\n{"))
			if next < 0 {
				break
			}
			rest = rest[next+2:]
			continue
		}
		rest = rest[dec.InputOffset():]
		for _, name := range slices.Sorted(maps.Keys(line.Envs)) {
			e := envs.env(name)
			for _, k := range line.Envs[name] {
				e.keep(k)
			}
		}
		if line.Env != "" {
			e := envs.env(line.Env)
			for _, k := range line.Put {
				e.put(k)
			}
			for _, id := range line.Drop {
				e.drop(id)
			}
		}
	}
	if skipped > 0 {
		return envs, fmt.Errorf("%d part(s) could not be read and were skipped", skipped)
	}
	return envs, nil
}

// AddToWatchlist adds ids to those kept for env, keeping what is known of
// the others, and returns how many were new.
func AddToWatchlist(path, env string, ids []string) (int, error) {
	w := &WatchFile{Path: path, Env: env}
	kept, err := w.Load()
	if err != nil {
		return 0, err
	}
	have := map[string]bool{}
	for _, k := range kept {
		have[k.QuoteID] = true
	}
	var added []Kept
	for _, id := range ids {
		if !have[id] && exchange.CheckQuoteID(id) == nil {
			have[id] = true
			added = append(added, Kept{QuoteID: id})
		}
	}
	return len(added), w.Append(added, nil)
}
