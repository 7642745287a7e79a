package follow

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// encoded is what a rewrite writes of es, one line an environment.
func encoded(t testing.TB, es watchEnvs) []byte {
	var out bytes.Buffer
	for _, name := range es.names() {
		line, err := json.Marshal(watchLine{Env: name, Put: es[name].kept()})
		if err != nil {
			t.Fatal(err)
		}
		out.Write(append(line, '\n'))
	}
	return out.Bytes()
}

func keptRow(i int, state string) Kept {
	id := fmt.Sprintf("q-mirror-%05d", i)
	return Kept{QuoteID: id, Checked: time.Unix(1_800_000_000+int64(i), 0).UTC(), Record: &exchange.Withdrawal{QuoteID: id,
		State: state, Chain: "ARBITRUM", TokenOut: "USDT", ReceiveAmount: decimal.RequireFromString("12.5")}}
}

// TestWatchFileMirrorIsTheFile (issue 35 item 2): two consoles on one state
// directory (two environments, and two boards of one), saving, removing,
// adding again, restarting and now and then writing a line cut short, with
// rewrites far more often than the real threshold: after every save, what
// the saving console holds in memory is what the file comes to read whole,
// so a rewrite from memory writes what a rewrite read back would.
func TestWatchFileMirrorIsTheFile(t *testing.T) {
	for trial := range exchangetest.Rounds(20, 3) {
		t.Run(fmt.Sprint("trial ", trial), func(t *testing.T) {
			t.Parallel() // each trial its own file and its own random steps
			rng := rand.New(rand.NewPCG(uint64(trial), 35))
			path := filepath.Join(t.TempDir(), WatchlistFile)
			consoles := []*WatchFile{{Path: path, Env: "sandbox"}, {Path: path, Env: "sandbox"}, {Path: path, Env: "local"}}
			mirrored := 0
			for step := range 120 {
				c := rng.IntN(len(consoles))
				w := consoles[c]
				switch r := rng.IntN(100); {
				case r < 5: // a restart: a new board loads the file
					consoles[c] = &WatchFile{Path: path, Env: w.Env}
					if _, err := consoles[c].Load(); err != nil && rng.IntN(2) == 0 {
						t.Logf("load: %v", err)
					}
					continue
				case r < 8: // a crash in the middle of a save
					f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
					f.WriteString(`{"env":"sandbox","put":[{"quote_id":"q-torn`)
					f.Close()
					continue
				case r < 11: // a board loads while another process's save is under way
					f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
					f.WriteString("\n" + `{"env":"sandbox","put":[{"quote_id":"q-mirr`)
					consoles[c] = &WatchFile{Path: path, Env: w.Env}
					consoles[c].Load()
					f.WriteString(`or-00099"}]}` + "\n")
					f.Close()
					continue
				}
				var put []Kept
				var drop []string
				for range 1 + rng.IntN(8) {
					i := rng.IntN(60)
					if rng.IntN(5) == 0 {
						drop = append(drop, keptRow(i, "").QuoteID)
					} else {
						put = append(put, keptRow(i, []string{exchange.StateSubmitted, exchange.StateSending}[rng.IntN(2)]))
					}
				}
				w.compactAt = int64(2000 + rng.IntN(4000)) // far below the real one
				if err := w.Append(put, drop); err != nil {
					t.Fatal(err)
				}
				if w.mirror == nil {
					continue
				}
				mirrored++
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				disk, _ := foldWatchlist(b)
				if got, want := encoded(t, w.mirror), encoded(t, disk); !bytes.Equal(got, want) {
					t.Fatalf("trial %d step %d: console %d holds\n%s\nthe file comes to\n%s", trial, step, c, got, want)
				}
			}
			if mirrored < 60 {
				t.Fatalf("trial %d: the mirror was known after only %d saves of 120", trial, mirrored)
			}
		})
	}
}

// TestWatchFileRewritesFromMemory: a rewrite writes what the board saved,
// not what the file says now: a line spoiled on disk after it was saved
// (same size, same file) does not lose its ids at the rewrite.
func TestWatchFileRewritesFromMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), WatchlistFile)
	w := &WatchFile{Path: path, Env: "sandbox"}
	var rows []Kept
	for i := range 100 {
		rows = append(rows, keptRow(i, exchange.StateSubmitted))
	}
	if err := w.Append(rows, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	b[0] = 'x' // the first line, every id, no longer reads
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	w.compactAt = w.end // the next save rewrites
	if err := w.Append([]Kept{keptRow(0, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := (&WatchFile{Path: path, Env: "sandbox"}).Load()
	if err != nil || len(kept) != 100 {
		t.Fatalf("after the rewrite the file holds %d ids (%v), want 100", len(kept), err)
	}
}

// BenchmarkWatchFileRewrite: the rewrite of a board of 10,000 ids with
// their records, from memory (the mirror) and read back whole (as before,
// and still when the mirror is not known).
func BenchmarkWatchFileRewrite(b *testing.B) {
	var rows []Kept
	for i := range 10000 {
		rows = append(rows, keptRow(i, exchange.StateSubmitted))
	}
	for _, how := range []string{"memory", "readback"} {
		b.Run(how, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), WatchlistFile)
			w := &WatchFile{Path: path, Env: "sandbox"}
			if err := w.Append(rows, nil); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for range b.N {
				es := w.mirror
				if how == "readback" {
					var err error
					if es, err = readBack(path); err != nil {
						b.Fatal(err)
					}
				}
				if _, _, err := es.rewrite(path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestWatchFileLoadDuringASave: a board that loads while another process's
// save is half written does not go on from the middle of that line: the
// line, once whole, is in what it rewrites.
func TestWatchFileLoadDuringASave(t *testing.T) {
	path := filepath.Join(t.TempDir(), WatchlistFile)
	if err := (&WatchFile{Path: path, Env: "sandbox"}).Append([]Kept{keptRow(1, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	f.WriteString(`{"env":"sandbox","put":[{"quote_id":"q-mirr`)
	w := &WatchFile{Path: path, Env: "sandbox"}
	w.Load()
	f.WriteString(`or-00099"}]}` + "\n")
	f.Close()
	w.compactAt = 1 // the next save rewrites
	if err := w.Append([]Kept{keptRow(2, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := w.Load()
	if err != nil || len(kept) != 3 {
		t.Fatalf("after the rewrite the file holds %d ids (%v), want 3", len(kept), err)
	}
}

// TestWatchFileRewrittenInPlace: a file replaced by another of the same
// inode (a rewrite given the number of the file it replaced) and a larger
// size is not taken for the one mirrored, grown: it is read back whole.
func TestWatchFileRewrittenInPlace(t *testing.T) {
	path := filepath.Join(t.TempDir(), WatchlistFile)
	w := &WatchFile{Path: path, Env: "sandbox"}
	if err := w.Append([]Kept{keptRow(1, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	var other []Kept
	for i := range 5 {
		other = append(other, keptRow(10+i, exchange.StateSubmitted))
	}
	line, _ := json.Marshal(watchLine{Env: "sandbox", Put: other})
	if err := os.WriteFile(path, append(line, '\n'), 0o600); err != nil { // same inode
		t.Fatal(err)
	}
	w.compactAt = 1 // the next save rewrites
	if err := w.Append([]Kept{keptRow(2, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	kept, err := w.Load()
	if err != nil || len(kept) != 6 || kept[0].QuoteID != other[0].QuoteID {
		t.Fatalf("after the rewrite the file holds %q (%v), want the 5 ids of the file and the one saved", keptIDs(kept), err)
	}
}

func keptIDs(kept []Kept) []string {
	var ids []string
	for _, k := range kept {
		ids = append(ids, k.QuoteID)
	}
	return ids
}

// TestWatchFileReplacedByAnother: a file another process renamed into
// place (another inode) of the same size and the same end is not the one
// mirrored: the rewrite reads it back.
func TestWatchFileReplacedByAnother(t *testing.T) {
	path := filepath.Join(t.TempDir(), WatchlistFile)
	w := &WatchFile{Path: path, Env: "sandbox"}
	if err := w.Append([]Kept{keptRow(1, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	was, _ := os.ReadFile(path)
	other := keptRow(1, exchange.StateSending)
	rec := *other.Record
	other.QuoteID, rec.QuoteID = "q-mirror-00003", "q-mirror-00003"
	other.Record = &rec
	line, _ := json.Marshal(watchLine{Env: "sandbox", Put: []Kept{other}})
	line = append(line, '\n')
	if len(line) != len(was) || !bytes.Equal(line[len(line)-lastBytes:], was[len(was)-lastBytes:]) {
		t.Fatalf("the stand-in file must have the same size and end:\n%s\n%s", was, line)
	}
	if err := os.WriteFile(path+".new", line, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".new", path); err != nil {
		t.Fatal(err)
	}
	w.compactAt = 1 // the next save rewrites
	if err := w.Append([]Kept{keptRow(2, exchange.StateSending)}, nil); err != nil {
		t.Fatal(err)
	}
	if kept, err := w.Load(); err != nil || len(kept) != 2 || kept[0].QuoteID != other.QuoteID {
		t.Fatalf("after the rewrite the file holds %q (%v), want %s and the one saved", keptIDs(kept), err, other.QuoteID)
	}
}

// TestWatchFileRewriteKeepsTheOthersLines: a console's rewrite keeps the
// line another console appended since its last save, read and folded into
// its mirror at its next save; the two saves are ordered by the calls, so
// a mirror that skips the other's lines loses its id every run.
func TestWatchFileRewriteKeepsTheOthersLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), WatchlistFile)
	a, b := &WatchFile{Path: path, Env: "sandbox"}, &WatchFile{Path: path, Env: "sandbox"}
	for _, save := range []struct {
		w  *WatchFile
		id string
	}{{a, "q-a-1"}, {b, "q-b-1"}, {a, "q-a-2"}} {
		if save.w == a && a.mirror != nil {
			a.compactAt = a.end // this save of a rewrites the file from its mirror
		}
		if err := save.w.Append([]Kept{{QuoteID: save.id}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(path); bytes.Count(b, []byte("\n")) != 1 {
		t.Fatalf("a's second save did not rewrite the file, one line an environment:\n%s", b)
	}
	kept, err := (&WatchFile{Path: path, Env: "sandbox"}).Load()
	if got := fmt.Sprint(keptIDs(kept)); err != nil || got != "[q-a-1 q-b-1 q-a-2]" {
		t.Fatalf("after a's rewrite the file holds %s (%v), want the other console's q-b-1 kept", got, err)
	}
}
