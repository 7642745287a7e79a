package follow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// The board's file is a log: each line says what changed for one
// environment, so a save costs what changed, not the board (10,000 ids
// are about 1.5 MB). Every svcwallet process appends under one lock
// (osguard.LockFile), so two consoles on one state directory keep each
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

// maxWatchFile bounds what of the file is read: a board of 10,000 ids with
// their records writes about 5 MB (6.5 with a claim each), 12 MB with every
// field at its longest, and a log grows to twice that before it is rewritten. A larger file (a
// sparse one of gigabytes costs no disk) is refused, never read whole.
const maxWatchFile = 64 << 20

// errTooLarge is the refusal of a file past maxWatchFile, with what to do.
func errTooLarge(path string) error {
	return fmt.Errorf("%s holds more than %d MiB, far more than a board writes (10,000 ids take about 5 MB); move it aside or remove it, and the board starts empty",
		safetext.Shown(path), maxWatchFile>>20)
}

// worded is err, osguard's refusal of a file past maxWatchFile worded.
func worded(path string, err error) error {
	if errors.As(err, new(*osguard.TooLargeError)) {
		return errTooLarge(path)
	}
	return err
}

// WatchFile is the board's file (WatchlistFile) at Path, for the
// environment Env. Its methods are safe to call from any goroutine.
type WatchFile struct {
	Path, Env string

	mu sync.Mutex
	// compactAt is the size past which Append rewrites the file: twice
	// what it held after the last rewrite, so rewriting costs each
	// appended line a constant share however large the board.
	compactAt int64
	// mirror is what the file comes to (every environment), as of its
	// first end bytes, in the file seen; nil when not known. A rewrite
	// writes it from memory, and a save reads only what other processes
	// appended since, so no minute of the board pays for the whole file.
	mirror watchEnvs
	end    int64
	seen   os.FileInfo
	// last is the file's bytes just before end: a file rewritten since
	// may be given the inode of the one seen, never these bytes there.
	last []byte
}

// lastBytes is how much of the file's end the mirror keeps to know it.
const lastBytes = 64

func tailOf(b []byte) []byte {
	return bytes.Clone(b[len(b)-min(len(b), lastBytes):])
}

// Load reads what is kept for Env, in the order added; a missing file is
// an empty board. Every entry is checked as it is read (an id of the
// wrong shape is dropped, a record that fails the checks of an answer is
// dropped and its id kept), and an id is kept once. A part that cannot be
// read (a line cut short by a crash) is skipped and said in the error,
// with what could be read.
func (w *WatchFile) Load() ([]Kept, error) {
	kept, _, err := w.load()
	return kept, err
}

// load is Load, with what the file comes to in every environment.
func (w *WatchFile) load() ([]Kept, watchEnvs, error) {
	b, fi, err := readWatchlist(w.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case err != nil:
		return nil, nil, fmt.Errorf("watch board file: %w", err)
	}
	envs, err := foldWatchlist(b)
	// What ends mid-line (another process's save under way, or cut short
	// by a crash) is not a place the mirror can go on from.
	if len(b) == 0 || b[len(b)-1] == '\n' {
		w.mu.Lock()
		w.mirror, w.end, w.seen, w.last = envs, int64(len(b)), fi, tailOf(b)
		w.mu.Unlock()
	}
	var out []Kept
	for _, k := range envs[w.Env].kept() {
		if k, ok := k.checked(); ok {
			out = append(out, k)
		}
	}
	out = withoutSecrets(out)
	if err != nil {
		return out, envs, fmt.Errorf("watch board file %s: %w", safetext.Shown(w.Path), err)
	}
	return out, envs, nil
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
	unlock, err := osguard.LockBeside(w.Path, osguard.Wait{Doing: "writing the watch board " + safetext.Shown(w.Path)})
	if err != nil {
		return fmt.Errorf("watch board file: %w", err)
	}
	defer unlock()
	size, written, err := w.appendLine(line)
	if err != nil {
		w.mirror = nil
		return fmt.Errorf("watch board file: %w", err)
	}
	if w.mirror != nil {
		e := w.mirror.env(w.Env)
		for _, k := range put {
			e.put(k)
		}
		for _, id := range drop {
			e.drop(id)
		}
		w.end, w.last = size, tailOf(written)
	}
	if w.compactAt == 0 {
		w.compactAt = max(2*size, minCompact)
	}
	if size <= w.compactAt {
		return nil
	}
	if w.mirror == nil {
		// Not known here (the file was another's rewrite, or read
		// mid-line): read back once, and mirrored from then on.
		w.mirror, err = readBack(w.Path)
	}
	if err == nil {
		size, w.last, err = w.mirror.rewrite(w.Path)
	}
	if err == nil {
		// Under the lock, the file at Path is the one just renamed there.
		// Its identity is read from an open handle: on Windows a FileInfo
		// from Lstat loads it only when compared, from whatever is at
		// Path by then.
		w.end = size
		w.seen, err = statOf(w.Path)
	}
	if err != nil {
		w.mirror = nil
		return fmt.Errorf("watch board file: %w", err)
	}
	w.compactAt = max(2*size, minCompact)
	return nil
}

// appendLine appends line to the file at w.Path (made 0600 if missing),
// on a line of its own, synced, and returns the file's size after it.
// First the mirror catches up with what other processes appended, or is
// dropped if the file is not the one it mirrors (another rewrote it).
func (w *WatchFile) appendLine(line []byte) (int64, []byte, error) {
	f, err := osguard.OpenPrivate(w.Path, os.O_RDWR|os.O_APPEND|os.O_CREATE)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	if fi.Size() > maxWatchFile {
		// Nothing is added to a file no board can read back, nor read of it.
		return 0, nil, errTooLarge(w.Path)
	}
	if err := w.catchUp(f, fi); err != nil {
		return 0, nil, err
	}
	// A line cut short by a crash is left to be skipped: this one starts
	// a line of its own.
	if n := fi.Size(); n > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, n-1); err != nil {
			return 0, nil, err
		}
		if last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	line = append(line, '\n')
	if _, err := f.Write(line); err != nil {
		return 0, nil, err
	}
	if err := f.Sync(); err != nil {
		return 0, nil, err
	}
	return fi.Size() + int64(len(line)), line, nil
}

// catchUp brings the mirror to what the file f (as fi) holds: an empty
// file is known whole; what others appended since the mirror's end is
// read and folded in; a file shorter or another drops the mirror.
func (w *WatchFile) catchUp(f *os.File, fi os.FileInfo) error {
	switch {
	case fi.Size() == 0:
		w.mirror, w.end = watchEnvs{}, 0
	case w.mirror == nil:
		return nil
	case !os.SameFile(w.seen, fi) || fi.Size() < w.end || !w.endsAt(f):
		w.mirror = nil
		return nil
	case fi.Size() > w.end:
		tail := make([]byte, fi.Size()-w.end)
		if _, err := f.ReadAt(tail, w.end); err != nil {
			return err
		}
		_ = w.mirror.fold(tail)
	}
	w.seen = fi
	return nil
}

// endsAt says whether f holds the mirror's last bytes just before its end.
func (w *WatchFile) endsAt(f *os.File) bool {
	b := make([]byte, len(w.last))
	_, err := f.ReadAt(b, w.end-int64(len(b)))
	return err == nil && bytes.Equal(b, w.last)
}

// statOf is the FileInfo of the file at path, read from an open handle.
func statOf(path string) (os.FileInfo, error) {
	f, err := osguard.OpenPrivate(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// readWatchlist reads the file at path and says which file it read.
func readWatchlist(path string) ([]byte, os.FileInfo, error) {
	f, err := osguard.OpenPrivate(path, os.O_RDONLY)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	b, err := osguard.ReadAtMost(f, path, maxWatchFile)
	return b, fi, worded(path, err)
}

// rewrite replaces the file at path with one line an environment, what
// es holds, written as it is made, and returns its new size; each
// environment's order is tidied of ids dropped; last is its last bytes.
func (es watchEnvs) rewrite(path string) (size int64, last []byte, err error) {
	err = osguard.WriteStateFileFrom(path, func(out io.Writer) error {
		for _, name := range es.names() {
			kept := es[name].kept()
			es[name].tidy(kept)
			line, err := json.Marshal(watchLine{Env: name, Put: kept})
			if err != nil {
				return err
			}
			line = append(line, '\n')
			last = tailOf(append(last, line...))
			n, err := out.Write(line)
			size += int64(n)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return size, last, err
}

// readBack is what the file at path comes to, read whole, for a rewrite
// when the mirror is not known. A part that could not be read is dropped
// with the rewrite.
func readBack(path string) (watchEnvs, error) {
	b, err := osguard.ReadStateFileAtMost(path, maxWatchFile)
	if err != nil {
		return nil, worded(path, err)
	}
	envs, _ := foldWatchlist(b)
	return envs, nil
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
		// An id dropped is in no at: its zero is no place, not the first.
		if at, ok := e.at[id]; ok && at == i {
			out = append(out, e.known[id])
		}
	}
	return out
}

// tidy makes kept, what e.kept gave, e's order: the ids dropped since
// leave it.
func (e *watchEnv) tidy(kept []Kept) {
	e.order = e.order[:0]
	for i, k := range kept {
		e.at[k.QuoteID] = i
		e.order = append(e.order, k.QuoteID)
	}
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
	return envs, envs.fold(b)
}

// fold reads lines, as foldWatchlist does, into what envs hold.
func (envs watchEnvs) fold(b []byte) error {
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
		return fmt.Errorf("%d part(s) could not be read and were skipped", skipped)
	}
	return nil
}

// AddToWatchlist adds ids, account's withdrawals, to those kept for env,
// keeping what is known of the others, and returns how many were new.
func AddToWatchlist(path, env, account string, ids []string) (int, error) {
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
			added = append(added, Kept{QuoteID: id, As: account})
		}
	}
	return len(added), w.Append(added, nil)
}
