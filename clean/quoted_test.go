package clean

import "testing"

// TestQuoted: what an error repeats of typed text keeps at most 8 hex
// digits in a row, and everything else as it was.
func TestQuoted(t *testing.T) {
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	for in, want := range map[string]string{
		"":                           "",
		"q-abc123":                   "q-abc123",
		"12345678":                   "12345678",
		"123456789":                  "12345678…",
		key:                          "ac0974be…",
		"0x" + key:                   "0x" + "ac0974be…",
		"/tmp/" + key[:40] + ".json": "/tmp/ac0974be….json",
		"my key " + key + " here":    "my key ac0974be… here",
		"deadbeef-cafebabe0":         "deadbeef-cafebabe…",
		"/home/ab/keys/ü.json":       "/home/ab/keys/ü.json",
	} {
		if got := Quoted(in); got != want {
			t.Errorf("Quoted(%q) = %q, want %q", in, got, want)
		}
	}
}
