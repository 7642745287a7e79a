//go:build unix

package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestPlantedIndexAllocatesLittle: an index file whose header says many
// withdrawals read up to the journal's first line makes no room for more
// than the rest of the journal could name. Its room was its withdrawals
// times the journal's growth since: of a 100 MB journal, a planted index
// asked for some 50 TB, and every command reading the journal died out of
// memory. Here, of a small journal, it asked for some 150 MB.
func TestPlantedIndexAllocatesLittle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	writeGenJournal(t, path, 300, 3)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	dev, ino, ok := fileIdentity(fi)
	if !ok {
		t.Skip("no file identity")
	}
	end := int64(bytes.IndexByte(data, '\n') + 1)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tail, err := tailSum(f, end)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.New()
	sum.Write(data[:end])
	state, _ := sum.(encoding.BinaryMarshaler).MarshalBinary()
	// As many withdrawals, a line each, as the index file's size allows.
	n := uint64(len(data)) / (entrySize + 8)
	head := []byte(indexMagic)
	for _, v := range []uint64{dev, ino, uint64(end), 0, n, n, 0} {
		head = binary.LittleEndian.AppendUint64(head, v)
	}
	head = append(append(head, tail[:]...), state...)
	planted := append(head, make([]byte, n*(entrySize+8)+4)...)
	if err := os.WriteFile(IndexPath(path), planted, 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := j.UnfinishedRecords(Owner{}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Fatalf("a planted index of a %d-byte journal allocated %d MB", len(data), got>>20)
	}
}

// TestPlantedIndexSkipsNoMoreThanItRead: an index file saying more lines
// skipped than bytes read is no index: the count was said as lost lines,
// 1099511627776 of them, with doctor named to look into them.
func TestPlantedIndexSkipsNoMoreThanItRead(t *testing.T) {
	path := indexedJournal(t)
	honest, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := honest.UnfinishedRecords(Owner{})
	if err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(IndexPath(path), reseal(putUint64(good, len(indexMagic)+24, 1<<40)), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, got, err := j.UnfinishedRecords(Owner{}); err != nil || got != want {
		t.Fatalf("%d lines skipped (%v), want %d", got, err, want)
	}
}
