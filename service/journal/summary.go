package journal

import (
	"encoding/binary"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// summary is what the index keeps of a withdrawal besides where its lines
// are: its status, and what a listing orders and lays out by before a
// line is read (History): its environment, when it started, which of its
// lines started it, and how long its quote id and its chain are.
type summary struct {
	st       status
	env      uint32 // its record's environment: an index in the view's envs
	quoteLen uint8
	chainLen uint8  // the chain of the intent it keeps (Record.Intent)
	recFirst uint32 // the first of its lines that is a withdrawal's (Record.Started)
	sec      int64  // Record.Started
	nsec     uint32
}

// with is s after line e, the withdrawal's line number n (counting from 0).
func (s summary) with(e Entry, n int) summary {
	if !withdrawalKind(e.Kind) {
		return s
	}
	if s.st&stRecord == 0 {
		s.recFirst, s.sec, s.nsec = uint32(n), e.Time.Unix(), uint32(e.Time.Nanosecond())
	}
	if e.Kind == KindIntent && e.Intent != nil && keepsIntent(s.st&stRequest != 0, s.st.reopenedBy(e), e) {
		s.chainLen = uint8(len(e.Intent.Chain))
	}
	s.st = s.st.with(e)
	return s
}

// started is Record.Started as the summary holds it.
func (s summary) started() time.Time { return time.Unix(s.sec, int64(s.nsec)).UTC() }

// agrees reports whether r, folded from a withdrawal's lines, is what its
// summary said in environment env.
func (s summary) agrees(r Record, env string) bool {
	return r.Env == env && r.Finished() == !s.st.open() && r.Started.Equal(s.started()) &&
		len(r.QuoteID) == int(s.quoteLen) && len(r.Intent.Chain) == int(s.chainLen)
}

// putSummary writes s into an index entry's bytes after its id and span;
// summaryAt reads it back.
func putSummary(e []byte, s summary) {
	e[24], e[25], e[26], e[27] = byte(s.st), s.quoteLen, s.chainLen, 0
	binary.LittleEndian.PutUint32(e[28:], s.env)
	binary.LittleEndian.PutUint64(e[32:], uint64(s.sec))
	binary.LittleEndian.PutUint32(e[40:], s.nsec)
	binary.LittleEndian.PutUint32(e[44:], s.recFirst)
}

func summaryAt(e []byte) summary {
	return summary{st: status(e[24]), quoteLen: e[25], chainLen: e[26], env: binary.LittleEndian.Uint32(e[28:]),
		sec: int64(binary.LittleEndian.Uint64(e[32:])), nsec: binary.LittleEndian.Uint32(e[40:]), recFirst: binary.LittleEndian.Uint32(e[44:])}
}

// sane reports whether a summary read from an index file could be one of
// a withdrawal of count lines, with envs environments.
func (s summary) sane(count, envs int) bool {
	return s.quoteLen <= maxQuoteLen && s.chainLen <= safetext.MaxNameLen && s.nsec < 1e9 &&
		(s.st&stRecord == 0 || int(s.env) < envs && int(s.recFirst) < count)
}

// maxQuoteLen is the longest quote id a line can hold (exchange.CheckID).
const maxQuoteLen = 128

// envTable is the environments the index names, each once, in the order
// first seen.
type envTable struct {
	names []string
	at    map[string]uint32
}

func (t *envTable) index(env string) uint32 {
	if t.at == nil {
		t.at = map[string]uint32{}
	}
	i, ok := t.at[env]
	if !ok {
		i = uint32(len(t.names))
		t.names = append(t.names, env)
		t.at[env] = i
	}
	return i
}

// appendTo writes the table after b: for each name, its length in a
// byte, then the name.
func (t *envTable) appendTo(b []byte) []byte {
	for _, n := range t.names {
		b = append(append(b, byte(len(n))), n...)
	}
	return b
}

// readEnvs reads a table appendTo wrote, refusing one whose names could
// not be a line's environment or are not each once.
func readEnvs(b []byte) (envTable, bool) {
	var t envTable
	for len(b) > 0 {
		n := int(b[0])
		if len(b) < 1+n {
			return t, false
		}
		name := string(b[1 : 1+n])
		if _, twice := t.at[name]; twice || exchange.CheckName("environment", name) != nil {
			return t, false
		}
		t.index(name)
		b = b[1+n:]
	}
	return t, true
}
