package safetext

import (
	"encoding/json"
	"testing"
)

// TestEscapeJSON: C1 controls and format characters, astral ones as a
// UTF-16 pair, become \u escapes that decode back to the same string;
// anything else is left as it is, without a copy.
func TestEscapeJSON(t *testing.T) {
	in, _ := json.Marshal("a\u0085b\u202ec\u200bd\U000E0001e é")
	got := EscapeJSON(in)
	want := `"a\u0085b\u202ec\u200bd\udb40\udc01e é"`
	if string(got) != want {
		t.Fatalf("EscapeJSON = %s, want %s", got, want)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil || back != "a\u0085b\u202ec\u200bd\U000E0001e é" {
		t.Fatalf("decodes to %q (%v)", back, err)
	}
	plain := []byte(`{"a":"é"}`)
	if out := EscapeJSON(plain); &out[0] != &plain[0] {
		t.Fatal("a clean document was copied")
	}
}
