package journal

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sort"
	"sync"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// The index file (journal.jsonl.index, beside the journal; a private file
// as the journal is, replaced whole, never trusted over it): a header
// naming the journal it indexes (device and inode, the end of the last
// whole line read, the SHA-256 of the bytes before it, the lines skipped),
// one entry per withdrawal sorted by keyID, the offsets of their lines,
// and a CRC-32C of all of it. It is used only while the journal is that
// file, at least that long and ending there in those bytes; otherwise the
// journal is read again whole and the index written anew.

const (
	indexMagic = "svcwjx2\n" // 2: withdrawals keyed by account and quote id (Owner)
	headerSize = len(indexMagic) + 6*8 + 32
	entrySize  = 16 + 4 + 4 + 1 + 7 // id, first offset, count, status, padding
)

// IndexPath is where the index of the journal at path is kept.
func IndexPath(path string) string { return path + ".index" }

func (j *Journal) indexPath() string { return IndexPath(j.path) }

// snapshot is the withdrawals of an index, in entrySize entries sorted by
// keyID, and their lines' offsets (8 bytes each), each withdrawal's
// together and in file order.
type snapshot struct {
	entries []byte
	offs    []byte
	open    []keyID // its unfinished withdrawals, once asked (openIDs)
	opened  bool
}

// openIDs is the withdrawals s holds unfinished: s never changes, so they
// are found once.
func (s *snapshot) openIDs() []keyID {
	if !s.opened {
		for i := range s.len() {
			if s.status(i).open() {
				s.open = append(s.open, s.id(i))
			}
		}
		s.opened = true
	}
	return s.open
}

func (s *snapshot) len() int { return len(s.entries) / entrySize }

func (s *snapshot) entry(i int) []byte { return s.entries[i*entrySize : (i+1)*entrySize] }

func (s *snapshot) id(i int) keyID { return keyID(s.entry(i)[:16]) }

func (s *snapshot) status(i int) status { return status(s.entry(i)[24]) }

func (s *snapshot) span(i int) (first, count int) {
	e := s.entry(i)
	return int(binary.LittleEndian.Uint32(e[16:])), int(binary.LittleEndian.Uint32(e[20:]))
}

func (s *snapshot) offsets(i int) []int64 {
	first, count := s.span(i)
	offs := make([]int64, count)
	for k := range offs {
		offs[k] = int64(binary.LittleEndian.Uint64(s.offs[(first+k)*8:]))
	}
	return offs
}

func (s *snapshot) search(id keyID) (int, bool) {
	n := s.len()
	i := sort.Search(n, func(i int) bool { return bytes.Compare(s.entry(i)[:16], id[:]) >= 0 })
	return i, i < n && s.id(i) == id
}

// merge is s with the lines read past it.
func (s *snapshot) merge(over map[keyID]*overKey) *snapshot {
	ids := make([]keyID, 0, len(over))
	lines := 0
	for id, o := range over {
		ids = append(ids, id)
		lines += len(o.offs)
	}
	slices.SortFunc(ids, func(a, b keyID) int { return bytes.Compare(a[:], b[:]) })
	out := &snapshot{entries: make([]byte, 0, len(s.entries)+len(ids)*entrySize), offs: make([]byte, 0, len(s.offs)+8*lines)}
	put := func(id keyID, st status, offs ...[]int64) {
		first := len(out.offs) / 8
		for _, part := range offs {
			for _, off := range part {
				out.offs = binary.LittleEndian.AppendUint64(out.offs, uint64(off))
			}
		}
		e := append(id[:], make([]byte, entrySize-16)...)
		binary.LittleEndian.PutUint32(e[16:], uint32(first))
		binary.LittleEndian.PutUint32(e[20:], uint32(len(out.offs)/8-first))
		e[24] = byte(st)
		out.entries = append(out.entries, e...)
	}
	i, k := 0, 0
	for i < s.len() || k < len(ids) {
		c := 1
		switch {
		case i == s.len():
			c = 1
		case k == len(ids):
			c = -1
		default:
			c = bytes.Compare(s.entry(i)[:16], ids[k][:])
		}
		switch {
		case c < 0:
			put(s.id(i), s.status(i), s.offsets(i))
			i++
		case c > 0:
			put(ids[k], over[ids[k]].st, over[ids[k]].offs)
			k++
		default:
			put(ids[k], over[ids[k]].st, s.offsets(i), over[ids[k]].offs)
			i, k = i+1, k+1
		}
	}
	return out
}

// saveIndex writes v (compacted) to the index file at path.
func saveIndex(path string, v *view) error {
	dev, ino, ok := fileIdentity(v.file)
	if !ok {
		return os.ErrInvalid
	}
	b := make([]byte, 0, headerSize+len(v.snap.entries)+len(v.snap.offs)+4)
	b = append(b, indexMagic...)
	for _, n := range []uint64{dev, ino, uint64(v.end), uint64(v.skipped), uint64(v.snap.len()), uint64(len(v.snap.offs) / 8)} {
		b = binary.LittleEndian.AppendUint64(b, n)
	}
	b = append(b, v.tail[:]...)
	b = append(b, v.snap.entries...)
	b = append(b, v.snap.offs...)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable()))
	return osguard.WriteStateFile(path, b)
}

// crcTable is made on first use: made at start it cost every command,
// svcwallet version included, a tenth of a millisecond.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// loadIndex is the view the index file at path holds of the journal f,
// or nil when there is none, or it is not a private file, or it does not
// hold together or match the journal.
func loadIndex(path string, f *os.File, fi os.FileInfo) *view {
	dev, ino, ok := fileIdentity(fi)
	if !ok {
		return nil
	}
	x, err := osguard.OpenPrivate(path, os.O_RDONLY)
	if err != nil {
		return nil
	}
	defer x.Close()
	xi, err := x.Stat()
	// Each line it names costs it 8 bytes and its withdrawal 32: less
	// than the shortest entry. A larger file is not an index.
	if err != nil || xi.Size() < int64(headerSize+4) || xi.Size() > int64(headerSize+4)+fi.Size() {
		return nil
	}
	b := make([]byte, xi.Size())
	if _, err := io.ReadFull(x, b); err != nil {
		return nil
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if string(body[:len(indexMagic)]) != indexMagic || crc32.Checksum(body, crcTable()) != sum {
		return nil
	}
	h := func(i int) uint64 { return binary.LittleEndian.Uint64(body[len(indexMagic)+8*i:]) }
	end, skipped, n, lines := h(2), h(3), h(4), h(5)
	if h(0) != dev || h(1) != ino || end > uint64(fi.Size()) || n > uint64(len(body)) || lines > uint64(len(body)) ||
		uint64(len(body)) != uint64(headerSize)+n*entrySize+8*lines {
		return nil
	}
	v := newView()
	v.end, v.skipped, v.file, v.unsaved = int64(end), int(skipped), fi, 0
	copy(v.tail[:], body[headerSize-32:headerSize])
	v.snap = &snapshot{entries: body[headerSize : headerSize+int(n)*entrySize], offs: body[headerSize+int(n)*entrySize:]}
	if !v.snap.wellFormed(v.end) || !endsAt(f, fi, v.end, v.tail) {
		return nil
	}
	return v
}

// wellFormed reports whether s's entries are sorted, their spans tile
// its offsets, and each offset is before end, ascending within its
// withdrawal.
func (s *snapshot) wellFormed(end int64) bool {
	next := 0
	for i := range s.len() {
		if i > 0 && bytes.Compare(s.entry(i - 1)[:16], s.entry(i)[:16]) >= 0 {
			return false
		}
		first, count := s.span(i)
		if first != next || count == 0 {
			return false
		}
		next += count
		if next > len(s.offs)/8 {
			return false
		}
		prev := int64(-1)
		for k := first; k < first+count; k++ {
			off := int64(binary.LittleEndian.Uint64(s.offs[8*k:]))
			if off <= prev || off >= end {
				return false
			}
			prev = off
		}
	}
	return next == len(s.offs)/8
}
