package plain

import "testing"

// TestPasteMarksAcrossReads: a paste's marks say which keys came with it
// however its reads cut it: a read inside an open paste came with it, one
// after its end mark did not; the marks are no keys.
func TestPasteMarksAcrossReads(t *testing.T) {
	var m pasteMarks
	for _, r := range []struct {
		read, keys string
		pasted     bool
	}{
		{"a", "a", false},
		{"\x1b[200~pa", "pa", true},
		{"\r", "\r", true}, // alone, between the marks
		{"ss\x1b[201~", "ss", true},
		{"\r", "\r", false}, // typed after the paste
		{"x\x1b[200~y\x1b[201~z", "xyz", true},
	} {
		keys, pasted := m.take([]byte(r.read))
		if string(keys) != r.keys || pasted != r.pasted {
			t.Errorf("read %q: keys %q, pasted %v; want %q, %v", r.read, keys, pasted, r.keys, r.pasted)
		}
	}
}
