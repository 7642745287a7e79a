package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/shopspring/decimal"
	"github.com/svcwallet/svcwallet/internal/exchangetest"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestIndexFileNotTrusted: an index file that does not hold together, names
// another journal, or names lines that are not there, is read as none:
// the journal is read whole and what it says is returned.
func TestIndexFileNotTrusted(t *testing.T) {
	path := indexedJournal(t)
	good, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatalf("no index file written: %v", err)
	}
	if fi, _ := os.Stat(IndexPath(path)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("index file mode %v, want 0600", fi.Mode().Perm())
	}
	resum := reseal
	for name, bad := range map[string][]byte{
		"a flipped byte": flip(good, headerSize+3),
		"an unfinished one said finished, not resealed": finishFirstOpen(good),
		"cut short":            good[:len(good)-9],
		"another inode":        resum(putUint64(good, len(indexMagic)+8, 12345)),
		"longer than the file": resum(putUint64(good, len(indexMagic)+16, 1<<40)),
		"swapped offsets":      resum(swapOffsets(good)),
		"another's line":       resum(firstOffsetAt(good, 0)),
		"inside a line":        resum(firstOffsetAt(good, 1)),
		"entries out of order": resum(swapEntries(good)),
		"empty":                {},
		"the journal's own":    mustRead(t, path),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(IndexPath(path), bad, 0o600); err != nil {
				t.Fatal(err)
			}
			j, _ := Open(path)
			checkAgainstWhole(t, j, name)
		})
	}
}

// indexedJournal writes a journal of 40 withdrawals, 3 unfinished, and
// its index file, checked once; every read writes the index file until
// the test ends.
func indexedJournal(t *testing.T) string {
	t.Helper()
	save := saveEvery
	t.Cleanup(func() { saveEvery = save })
	saveEvery = 1
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	writeGenJournal(t, path, 40, 3)
	j, _ := Open(path)
	checkAgainstWhole(t, j, "first read")
	return path
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func flip(b []byte, i int) []byte {
	b = slices.Clone(b)
	b[i] ^= 1
	return b
}

// reseal puts the CRC of an index file's body back at its end.
func reseal(b []byte) []byte {
	b = slices.Clone(b)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crcTable()))
	return b
}

func putUint64(b []byte, at int, n uint64) []byte {
	b = slices.Clone(b)
	binary.LittleEndian.PutUint64(b[at:], n)
	return b
}

// swapOffsets swaps the first line of the first two withdrawals.
func swapOffsets(b []byte) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	offs := b[headerSize+n*entrySize:]
	second := int(binary.LittleEndian.Uint32(b[headerSize+entrySize+16:]))
	a, c := slices.Clone(offs[:8]), slices.Clone(offs[8*second:8*second+8])
	copy(offs[:8], c)
	copy(offs[8*second:], a)
	return b
}

// firstOffsetAt moves the first line of the first withdrawal whose lines
// do not start at the journal's start to off: the journal's first line,
// another withdrawal's, or the inside of it.
func firstOffsetAt(b []byte, off uint64) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	offs := b[headerSize+n*entrySize:]
	for i := range n {
		first := int(binary.LittleEndian.Uint32(b[headerSize+i*entrySize+16:]))
		if binary.LittleEndian.Uint64(offs[8*first:]) != 0 {
			binary.LittleEndian.PutUint64(offs[8*first:], off)
			return b
		}
	}
	panic("every withdrawal starts the journal")
}

// finishFirstOpen says the first unfinished withdrawal of an index file is
// COMPLETED, leaving its CRC as it was.
func finishFirstOpen(b []byte) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	for i := range n {
		at := headerSize + i*entrySize + 24
		if status(b[at]).open() {
			b[at] = byte(stRecord | stAnswered | status(slices.Index(stateNames[:], exchange.StateCompleted))<<stateShift)
			return b
		}
	}
	panic("no unfinished withdrawal")
}

func swapEntries(b []byte) []byte {
	b = slices.Clone(b)
	first, second := slices.Clone(b[headerSize:headerSize+entrySize]), b[headerSize+entrySize:headerSize+2*entrySize]
	copy(b[headerSize:], second)
	copy(b[headerSize+entrySize:], first)
	return b
}

// sameList is reflect.DeepEqual, an empty list being one.
func sameList[T any](a, b []T) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) }

// TestIndexFileLinkRefused: a link where the index file goes is neither
// read nor written through: the journal is read whole, and the link's
// target is left as it was.
func TestIndexFileLinkRefused(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	writeGenJournal(t, path, 40, 3)
	j, _ := Open(path)
	checkAgainstWhole(t, j, "first read")
	target := filepath.Join(dir, "elsewhere")
	if err := os.Rename(IndexPath(path), target); err != nil {
		t.Fatal(err)
	}
	planted := firstOffsetAt(mustRead(t, target), 0)
	if err := os.WriteFile(target, reseal(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, IndexPath(path)); err != nil {
		t.Fatal(err)
	}
	appendRaw(t, path, string(genLines(t, "q-after", 41, false)[0])+"\n")
	again, _ := Open(path)
	checkAgainstWhole(t, again, "through a link")
	if fi, err := os.Lstat(IndexPath(path)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v, %v", fi, err)
	}
	if !slices.Equal(mustRead(t, target), reseal(planted)) {
		t.Fatal("the link's target was written")
	}
}

// TestNoJournalNoRecords: a nil journal (none configured) and a journal
// not yet written have no records, and nothing is created by reading.
func TestNoJournalNoRecords(t *testing.T) {
	var none *Journal
	if recs, skipped, err := none.UnfinishedRecords(genOwner); recs != nil || skipped != 0 || err != nil {
		t.Fatalf("nil journal: %v, %d, %v", recs, skipped, err)
	}
	if recs, err := none.RecordsOf(genOwner, "q-1"); recs != nil || err != nil {
		t.Fatalf("nil journal: %v, %v", recs, err)
	}
	if entries, err := none.EntriesOf(genOwner, "q-1"); entries != nil || err != nil {
		t.Fatalf("nil journal: %v, %v", entries, err)
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := Open(path)
	if recs, skipped, err := j.UnfinishedRecords(genOwner); len(recs) != 0 || skipped != 0 || err != nil {
		t.Fatalf("no journal yet: %v, %d, %v", recs, skipped, err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("reading created the journal: %v", err)
	}
	if _, err := os.Lstat(IndexPath(path)); !os.IsNotExist(err) {
		t.Fatalf("reading created an index: %v", err)
	}
}

// TestIndexOfAnotherJournal: a journal replaced by another file of the same
// length and the same last bytes, in which a finished withdrawal's line
// became an unfinished one's, is not read through the old one's index.
func TestIndexOfAnotherJournal(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	writeGenJournal(t, path, 200, 1)
	j, _ := Open(path)
	checkAgainstWhole(t, j, "first read")
	raw := mustRead(t, path)
	// The third withdrawal's COMPLETED becomes the SENDING of a withdrawal
	// of its own, as long.
	done := []byte(`"quote_id":"q-00000002","state":"COMPLETED"`)
	open := []byte(`"quote_id":"q-99999992","state":"SENDING"  `)
	if i := bytes.Index(raw, done); i < 0 || len(done) != len(open) {
		t.Fatal("no line to change")
	}
	other := bytes.Replace(raw, done, open, 1)
	if err := os.WriteFile(filepath.Join(dir, "other"), other, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "other"), path); err != nil {
		t.Fatal(err)
	}
	checkAgainstWhole(t, j, "replaced, in memory")
	again, _ := Open(path)
	checkAgainstWhole(t, again, "replaced, from the index file")
}

// TestTallyTornLine: a last line without its newline is a line skipped,
// never its withdrawal's, whose other lines the view holds past its index.
func TestTallyTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	lines := genLines(t, "q-1", 1, false)
	appendRaw(t, path, string(lines[0])+"\n"+string(lines[1])+"\n")
	prepared := genIntent("production", "acct-1", "q-1", 1, genT0)
	prepared.Kind, prepared.Request = KindPrepared, nil
	prepared.Prepared = &Prepared{Signer: common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), Fee: new(decimal.Zero)}
	b, err := json.Marshal(prepared)
	if err != nil {
		t.Fatal(err)
	}
	appendRaw(t, path, string(b))
	j, _ := Open(path)
	if got, err := j.Tally(); err != nil || got != (Tally{Withdrawals: 1, Unfinished: 1, Skipped: 1}) {
		t.Fatalf("Tally = %+v, %v; want one withdrawal, unfinished, and a line skipped", got, err)
	}
}

// TestIndexWhileAnotherAppends: reads through the index while another
// Journal on the file (another process) appends and writes the index file
// too; once it is done, the reads say what the whole journal says.
func TestIndexWhileAnotherAppends(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 3
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	writer, _ := Open(path)
	reader, _ := Open(path)
	done := make(chan error)
	// A read starts after each append, and runs while the next ones are
	// made; a read with nothing appended since the last only spun the CPU.
	appended := make(chan struct{}, 1)
	go func() {
		for i := range 40 {
			for _, l := range genLines(t, genQuoteID(i), i, i%3 != 0) {
				var e Entry
				if err := json.Unmarshal(l, &e); err != nil {
					done <- err
					return
				}
				if err := writer.Append(e); err != nil {
					done <- err
					return
				}
				select {
				case appended <- struct{}{}:
				default:
				}
			}
			if _, _, err := writer.UnfinishedRecords(genOwner); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for reading := true; reading; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			reading = false
		case <-appended:
			if _, _, err := reader.UnfinishedRecords(genOwner); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkAgainstWhole(t, reader, "after the appends")
	if recs, _, _ := reader.UnfinishedRecords(genOwner); len(recs) != 14 {
		t.Fatalf("%d unfinished, want 14", len(recs))
	}
}

// TestHistoryIndexLies: an index file that holds together but says what
// the journal's lines do not (another's line, a finished withdrawal
// unfinished) stops History at that withdrawal with an error, and is
// removed: the next History says what the whole journal says.
func TestHistoryIndexLies(t *testing.T) {
	path := indexedJournal(t)
	good := mustRead(t, IndexPath(path))
	whole, _ := Open(path)
	recs, skipped, err := whole.RecordsSkipped()
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"another's line":                  reseal(firstOffsetAt(good, 0)),
		"a finished one said unfinished":  reseal(openFirstFinished(good)),
		"an unfinished one said finished": reseal(finishFirstOpen(good)),
	} {
		t.Run(name, func(t *testing.T) {
			exchangetest.Must(t, os.WriteFile(IndexPath(path), bad, 0o600))
			j, _ := Open(path)
			err := j.History(ListOptions{Env: "production"}, func(Listing) error { return nil }, func(Record) error { return nil })
			if !errors.Is(err, errStale) {
				t.Fatalf("History through a lying index: %v, want errStale", err)
			}
			if _, err := os.Lstat(IndexPath(path)); !os.IsNotExist(err) {
				t.Fatalf("the lying index is still there: %v", err)
			}
			checkHistory(t, j, recs, skipped, "production", name)
		})
	}
}

// openFirstFinished says the first finished withdrawal of an index file
// is SENDING, leaving its CRC as it was.
func openFirstFinished(b []byte) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	for i := range n {
		at := headerSize + i*entrySize + 24
		if st := status(b[at]); st&stRecord != 0 && !st.open() {
			b[at] = byte(stRecord | stAnswered | status(slices.Index(stateNames[:], exchange.StateSending))<<stateShift)
			return b
		}
	}
	panic("no finished withdrawal")
}

// TestAbsorbInPlace: lines read past an index loaded from its file, and
// past one built in memory, are moved into it in place to the very index
// a read of the whole journal builds: a line of a new withdrawal, and the
// lines of many, new and not.
func TestAbsorbInPlace(t *testing.T) {
	defer func(s, c int) { saveEvery, compactEvery = s, c }(saveEvery, compactEvery)
	for _, added := range [][2]int{{40, 41}, {30, 60}} {
		compactEvery = 1 << 16
		path := indexedJournal(t)
		var more strings.Builder
		for i := added[0]; i < added[1]; i++ {
			lines := genLines(t, genQuoteID(i), i, i%4 != 0)
			if added[1]-added[0] == 1 {
				lines = lines[:1]
			}
			for _, l := range lines {
				more.Write(append(l, '\n'))
			}
		}
		appendRaw(t, path, more.String())
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, _ := f.Stat()
		whole := newView()
		if _, err := whole.readOn(f, fi, nil); err != nil {
			t.Fatal(err)
		}
		whole.compact()
		compactEvery = 7 // in memory, absorbed every 7 lines
		for name, v := range map[string]*view{"loaded from its file": loadIndex(IndexPath(path), f, fi), "built in memory": newView()} {
			if v == nil {
				t.Fatal("the index file was not loaded")
			}
			if _, err := v.readOn(f, fi, nil); err != nil {
				t.Fatal(err)
			}
			v.compact()
			if !bytes.Equal(v.snap.entries, whole.snap.entries) || !bytes.Equal(v.snap.offs, whole.snap.offs) {
				t.Errorf("%v added, %s: the index after absorbing differs from the whole journal's", added, name)
			}
		}
	}
}

// previousIndexMagics are the index formats before this one: 4 kept no
// acceptance apart (stAccepted), so a refusal after one read as finished;
// 5 kept the chain of the last intent line, not of the kept request's; 6
// no running sum of what it read, so a journal rewritten in place, as long
// and ending alike, was read on from its old mark (checkRead); 7 keyed an
// account's address by its letter case (keyFor); 8 read an earlier
// version's refusal of a 303 as finished, 9 one of an unreadable 2xx.
var previousIndexMagics = []string{"svcwjx4\n", "svcwjx5\n", "svcwjx6\n", "svcwjx7\n", "svcwjx8\n", "svcwjx9\n"}

// TestIndexOfAnEarlierFormatRebuilt: an index file an earlier version
// wrote, whole and matching its journal, is never trusted: here one that
// says a withdrawal accepted and then refused is finished, as format 4
// folded it. Its unfinished withdrawals are read from the journal, and the
// index file is written anew in today's format.
func TestIndexOfAnEarlierFormatRebuilt(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	for _, previous := range previousIndexMagics {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := Open(path)
		exchangetest.Must(t, err)
		entries, _ := foldOrder([]int{0, 1, 2}) // intent, accepted, refused
		for _, e := range entries {
			exchangetest.Must(t, j.Append(e))
		}
		if _, err := j.Tally(); err != nil {
			t.Fatal(err)
		}
		old := mustRead(t, IndexPath(path))
		if n := binary.LittleEndian.Uint64(old[len(indexMagic)+32:]); n != 1 {
			t.Fatalf("the index holds %d withdrawals, want 1", n)
		}
		copy(old, previous)
		old[headerSize+24] = byte(stRecord | stAnswered) // refused: how format 4 folded these lines
		exchangetest.Must(t, os.WriteFile(IndexPath(path), reseal(old), 0o600))

		again, err := Open(path)
		exchangetest.Must(t, err)
		open, _, err := again.UnfinishedRecords(Owner{Env: "production", AccountID: "acct-1"})
		if err != nil || len(open) != 1 || open[0].State != exchange.StateSubmitted {
			t.Fatalf("unfinished through an index of format %q: %+v, %v; want the accepted withdrawal", previous, open, err)
		}
		if got := string(mustRead(t, IndexPath(path))[:len(indexMagic)]); got != indexMagic {
			t.Fatalf("the index file starts %q after a read, want %q: not rebuilt", got, indexMagic)
		}
	}
}
