package safetext

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// foldKey folds a key as encoding/json matches keys (bytes.EqualFold):
// ASCII by case, any other rune to the smallest of its simple fold orbit,
// so "ſtate" (U+017F) and "state" fold alike.
func foldKey(k string) string {
	var b strings.Builder
	for _, r := range k {
		for {
			next := unicode.SimpleFold(r)
			if next <= r {
				r = next
				break
			}
			r = next
		}
		b.WriteRune(r)
	}
	return b.String()
}

// RepeatedKey finds the first object key in a JSON document that names the
// same field as one before it in its object: encoding/json matches keys
// ignoring case and keeps the last, so {"state":"COMPLETED","STATE":"FAILED"}
// would read as FAILED while another reader sees COMPLETED. It is one pass
// over the bytes (keyScanner), for every answer, journal line and state file
// read back; what is not JSON is left for the decoder to refuse. The name
// is returned as written, not yet cleaned.
func RepeatedKey(body []byte) (name string, repeated bool) {
	s := keyScanner{b: body, arena: make([]byte, 0, min(len(body), 1024)), keys: make([][2]int, 0, 32)}
	for s.space() < len(s.b) && !s.bad && !s.found {
		s.value()
	}
	return s.name, s.found
}

// keyScanner walks a JSON text once, keeping the folded keys of each
// object it is in (in one arena, a span per key) to find a repeated one.
// Malformed input stops it (bad), as a repeated key does (found, name).
type keyScanner struct {
	b     []byte
	i     int
	bad   bool
	found bool
	name  string
	arena []byte   // folded keys, back to back
	keys  [][2]int // spans of arena, the open objects' keys in order
	big   []keyset // sets of the open objects with many keys
	depth int
}

// keyset holds the folded keys of one object with more than
// manyKeys, so that a hostile object of thousands of keys is not compared
// pair by pair.
type keyset struct {
	depth int
	set   map[string]bool
}

const manyKeys = 32

// maxDepth is encoding/json's bound on nested objects and arrays.
const maxDepth = 10000

func (s *keyScanner) space() int {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return s.i
		}
	}
	return s.i
}

// value scans one value at s.i (after its leading space).
func (s *keyScanner) value() {
	if s.i >= len(s.b) {
		s.bad = true
		return
	}
	switch s.b[s.i] {
	case '{':
		s.i++
		s.object()
		return
	case '[':
		s.i++
		if s.closes(']') {
			return
		}
		for {
			s.space()
			if s.value(); s.stopped() {
				return
			}
			if !s.more(']') {
				return
			}
		}
	case '"':
		s.str()
		return
	}
	// A number, true, false or null: up to the next delimiter.
	start := s.i
	for s.i < len(s.b) && !delimiter(s.b[s.i]) {
		s.i++
	}
	s.bad = s.i == start
}

func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', '[', ']', '{', '}', '"':
		return true
	}
	return false
}

// object scans the members of an object whose brace was read, stopping
// at a key that folds as one before it in the same object.
func (s *keyScanner) object() {
	if s.depth++; s.depth > maxDepth {
		s.bad = true // encoding/json refuses it
		s.depth--
		return
	}
	first := len(s.keys)
	arena := len(s.arena)
	defer func() {
		s.keys, s.arena = s.keys[:first], s.arena[:arena]
		if n := len(s.big); n > 0 && s.big[n-1].depth == s.depth {
			s.big = s.big[:n-1]
		}
		s.depth--
	}()
	if s.closes('}') {
		return
	}
	for {
		if s.space(); s.i >= len(s.b) || s.b[s.i] != '"' {
			s.bad = true
			return
		}
		start := s.i
		escaped, ascii := s.str()
		if s.bad {
			return
		}
		if s.key(s.b[start:s.i], escaped || !ascii, first); s.stopped() {
			return
		}
		if s.space(); s.i >= len(s.b) || s.b[s.i] != ':' {
			s.bad = true
			return
		}
		s.i++
		s.space()
		if s.value(); s.stopped() {
			return
		}
		if !s.more('}') {
			return
		}
	}
}

// closes skips space and reads close ('}' or ']') when it comes next.
func (s *keyScanner) closes(close byte) bool {
	if s.space(); s.i < len(s.b) && s.b[s.i] == close {
		s.i++
		return true
	}
	return false
}

// more reads what follows a member or an element: a comma (true: another
// follows) or close (false); anything else marks the text bad.
func (s *keyScanner) more(close byte) bool {
	switch {
	case s.closes(close):
		return false
	case s.i < len(s.b) && s.b[s.i] == ',':
		s.i++
		return true
	}
	s.bad = true
	return false
}

// str scans a string at s.i, its quotes included, and tells whether it
// holds an escape or a byte outside ASCII.
func (s *keyScanner) str() (escaped, ascii bool) {
	ascii = true
	for s.i++; s.i < len(s.b); s.i++ {
		switch c := s.b[s.i]; {
		case c == '"':
			s.i++
			return escaped, ascii
		case c == '\\':
			escaped = true
			s.i++
		case c >= 0x80:
			ascii = false
		}
	}
	s.bad = true
	return escaped, ascii
}

// key folds the quoted key q (foldKey; ASCII by case alone) into the
// arena and marks it found when the object, whose keys start at first,
// already holds it.
func (s *keyScanner) key(q []byte, slow bool, first int) {
	start := len(s.arena)
	var name string
	if slow {
		if err := json.Unmarshal(q, &name); err != nil {
			s.bad = true
			return
		}
		s.arena = append(s.arena, foldKey(name)...)
	} else {
		for _, c := range q[1 : len(q)-1] {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			s.arena = append(s.arena, c)
		}
	}
	folded := s.arena[start:]
	seen := false
	if n := len(s.big); n > 0 && s.big[n-1].depth == s.depth {
		seen = s.big[n-1].set[string(folded)]
		s.big[n-1].set[string(folded)] = true
	} else {
		for _, k := range s.keys[first:] {
			if bytes.Equal(s.arena[k[0]:k[1]], folded) {
				seen = true
				break
			}
		}
		if len(s.keys)-first == manyKeys {
			set := make(map[string]bool, 2*manyKeys)
			for _, k := range s.keys[first:] {
				set[string(s.arena[k[0]:k[1]])] = true
			}
			set[string(folded)] = true
			s.big = append(s.big, keyset{depth: s.depth, set: set})
		}
	}
	if seen {
		if !slow {
			name = string(q[1 : len(q)-1])
		}
		s.found, s.name = true, name
		return
	}
	s.keys = append(s.keys, [2]int{start, len(s.arena)})
}

// stopped: the text is malformed or a repeated key was found.
func (s *keyScanner) stopped() bool { return s.bad || s.found }
