package journal

import (
	"bufio"
	"bytes"
	"encoding"
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
// whole line read, the SHA-256 of the last 4 KiB before it and the
// running SHA-256 state of all of them, the lines skipped),
// one entry per withdrawal sorted by keyID (where its offsets are, and its
// summary), the offsets of their lines, the environments the summaries
// name, and a CRC-32C of all of it. It is used only while the journal is
// that file, at least that long and ending there in those bytes;
// otherwise the journal is read again whole and the index written anew.

const (
	// 2: withdrawals keyed by account and quote id (Owner); 3: each one's
	// summary; 4: an intent after a refusal opens it again (reopens); 5:
	// once accepted, always (stAccepted, answerOf); 6: the chain of the
	// intent whose request is kept (stRequest, keepsIntent); 7: the
	// running SHA-256 of the bytes indexed (checkRead); 8: an account's
	// address one key in any letter case (keyFor); 9: an earlier version's
	// refusal of an answer that tells nothing leaves it open (unknownOutcome);
	// 10: so does one of a 2xx it could not read (legacyUnreadable).
	indexMagic = "svcwj10\n"
	headerSize = len(indexMagic) + 7*8 + 32 + readStateSize
	// readStateSize is the length of a SHA-256's state as it marshals it.
	readStateSize = 108
	// id, first offset, count, then the summary (putSummary): status,
	// quote and chain lengths, a pad byte, environment, started (seconds,
	// nanoseconds), first withdrawal line.
	entrySize = 16 + 4 + 4 + 4 + 4 + 8 + 4 + 4
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

func (s *snapshot) summary(i int) summary { return summaryAt(s.entry(i)) }

// offset is where line k of withdrawal i starts.
func (s *snapshot) offset(i, k int) int64 {
	first, _ := s.span(i)
	return int64(binary.LittleEndian.Uint64(s.offs[(first+k)*8:]))
}

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

// absorb moves the lines read past s into it and returns how many
// withdrawals it added. It works in place, from the back, so that no
// entry or offset is moved before it is read and the index is never held
// twice; its room grows, when short, by spare more withdrawals and lines.
func (s *snapshot) absorb(over map[keyID]*overKey, spareEntries, spareLines int) (added int) {
	ids := make([]keyID, 0, len(over))
	lines := 0
	for id, o := range over {
		ids = append(ids, id)
		lines += len(o.offs)
		if _, ok := s.search(id); !ok {
			added++
		}
	}
	slices.SortFunc(ids, func(a, b keyID) int { return bytes.Compare(a[:], b[:]) })
	n, m := s.len(), len(s.offs)/8
	s.entries = room(s.entries, (n+added)*entrySize, spareEntries*entrySize)
	s.offs = room(s.offs, (m+lines)*8, spareLines*8)
	s.open, s.opened = nil, false
	// i, k: the next old entry and over's next id, from the back; we, wo:
	// where the next entry and the next block of offsets end.
	i, k, we, wo := n-1, len(ids)-1, n+added, m+lines
	for we > 0 {
		we--
		// Last of what is left: old entry i, over's id k, or both (one id).
		takeOld, takeOver := k < 0, i < 0
		if !takeOld && !takeOver {
			c := bytes.Compare(s.entry(i)[:16], ids[k][:])
			takeOld, takeOver = c >= 0, c <= 0
		}
		var id keyID
		var sum summary
		count := 0
		if takeOver {
			o := over[ids[k]]
			id, sum, count = ids[k], o.sum, len(o.offs)
			wo -= count
			for j, off := range o.offs {
				binary.LittleEndian.PutUint64(s.offs[(wo+j)*8:], uint64(off))
			}
			k--
		}
		if takeOld {
			first, c := s.span(i)
			if !takeOver {
				id, sum = s.id(i), s.summary(i)
			}
			wo -= c
			count += c
			copy(s.offs[wo*8:], s.offs[first*8:(first+c)*8])
			i--
		}
		e := s.entries[we*entrySize : (we+1)*entrySize]
		copy(e, id[:])
		binary.LittleEndian.PutUint32(e[16:], uint32(wo))
		binary.LittleEndian.PutUint32(e[20:], uint32(count))
		putSummary(e, sum)
	}
	return added
}

// room is b grown to n bytes, in place when its capacity allows; else
// copied once into a buffer with spare bytes more room.
func room(b []byte, n, spare int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	grown := make([]byte, n, n+spare)
	copy(grown, b)
	return grown
}

// saveIndex writes v (compacted) to the index file at path, section by
// section: the index is never copied whole to be written.
func saveIndex(path string, v *view) error {
	dev, ino, ok := fileIdentity(v.file)
	if !ok {
		return os.ErrInvalid
	}
	envs := v.envs.appendTo(nil)
	head := make([]byte, 0, headerSize)
	head = append(head, indexMagic...)
	for _, n := range []uint64{dev, ino, uint64(v.end), uint64(v.skipped), uint64(v.snap.len()), uint64(len(v.snap.offs) / 8), uint64(len(envs))} {
		head = binary.LittleEndian.AppendUint64(head, n)
	}
	head = append(head, v.tail[:]...)
	state, err := v.readSum.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil || len(state) != readStateSize {
		return os.ErrInvalid
	}
	head = append(head, state...)
	return osguard.WriteStateFileFrom(path, func(f io.Writer) error {
		w := bufio.NewWriterSize(f, 256<<10)
		sum := crc32.New(crcTable())
		for _, part := range [][]byte{head, v.snap.entries, v.snap.offs, envs} {
			sum.Write(part)
			w.Write(part)
		}
		w.Write(binary.LittleEndian.AppendUint32(nil, sum.Sum32()))
		return w.Flush()
	})
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
	// Each line it names costs it 8 bytes and its withdrawal 48, and each
	// environment its name's length and one: less than the shortest lines
	// that hold them. A larger file is not an index.
	if err != nil || xi.Size() < int64(headerSize+4) || xi.Size() > int64(headerSize+4)+fi.Size() {
		return nil
	}
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(x, head); err != nil || string(head[:len(indexMagic)]) != indexMagic {
		return nil
	}
	h := func(i int) uint64 { return binary.LittleEndian.Uint64(head[len(indexMagic)+8*i:]) }
	end, skipped, n, lines, envBytes := h(2), h(3), h(4), h(5), h(6)
	size := uint64(xi.Size())
	// A line skipped is a byte at least: more is no count of this journal.
	if h(0) != dev || h(1) != ino || end > uint64(fi.Size()) || skipped > end || n > size || lines > size || envBytes > size ||
		size != uint64(headerSize)+n*entrySize+8*lines+envBytes+4 {
		return nil
	}
	// Each section in a buffer of its own, with room for what the journal
	// holds past the index: absorb grows them in place. The room is never
	// more than that rest could name (a line costs 8 bytes, a withdrawal
	// 48): a planted header's many withdrawals up to the first line asked
	// terabytes of a large journal.
	ahead, rest := 0.0, uint64(fi.Size())-end
	if end > 0 {
		ahead = float64(rest) / float64(end) * 1.1
	}
	v := newView()
	v.snap = &snapshot{entries: make([]byte, n*entrySize, (n+spareFor(n, ahead, rest/entrySize))*entrySize+entrySize),
		offs: make([]byte, 8*lines, 8*(lines+spareFor(lines, ahead, rest/8))+8)}
	envs, sum := make([]byte, envBytes), make([]byte, 4)
	crc := crc32.Update(0, crcTable(), head)
	for _, part := range [][]byte{v.snap.entries, v.snap.offs, envs} {
		if _, err := io.ReadFull(x, part); err != nil {
			return nil
		}
		crc = crc32.Update(crc, crcTable(), part)
	}
	if _, err := io.ReadFull(x, sum); err != nil || crc != binary.LittleEndian.Uint32(sum) {
		return nil
	}
	v.end, v.skipped, v.file, v.unsaved = int64(end), int(skipped), fi, 0
	copy(v.tail[:], head[headerSize-readStateSize-32:])
	if v.readSum.(encoding.BinaryUnmarshaler).UnmarshalBinary(head[headerSize-readStateSize:]) != nil {
		return nil
	}
	if v.envs, ok = readEnvs(envs); !ok || !v.snap.wellFormed(v.end, len(v.envs.names)) || !endsAt(f, fi, v.end, v.tail) {
		return nil
	}
	return v
}

// spareFor is the spare room for the count of what the index holds, by
// the journal's growth since (ahead), at most most.
func spareFor(count uint64, ahead float64, most uint64) uint64 {
	if spare := float64(count) * ahead; spare < float64(most) {
		return uint64(spare)
	}
	return most
}

// wellFormed reports whether s's entries are sorted, their spans tile
// its offsets, each offset is before end, ascending within its
// withdrawal, and each summary could be its withdrawal's, among envs
// environments.
func (s *snapshot) wellFormed(end int64, envs int) bool {
	next := 0
	for i := range s.len() {
		if i > 0 && bytes.Compare(s.entry(i - 1)[:16], s.entry(i)[:16]) >= 0 {
			return false
		}
		first, count := s.span(i)
		if first != next || count == 0 || !s.summary(i).sane(count, envs) {
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
