package session

import "testing"

// TestServes: a kept session serves a command given no API key, or the
// key kept with it; another key given logs in instead, and so does any key
// given beside a session kept without one (a wallet's, or in the file).
func TestServes(t *testing.T) {
	for _, c := range []struct {
		kept, given string
		want        bool
	}{
		{"live-api-key-1", "", true},
		{"live-api-key-1", "live-api-key-1", true},
		{"live-api-key-1", "live-api-key-2", false},
		{"", "", true},
		{"", "live-api-key-1", false},
	} {
		if got := (Loaded{APIKey: c.kept}).Serves(c.given); got != c.want {
			t.Errorf("kept %q, given %q: %v, want %v", c.kept, c.given, got, c.want)
		}
	}
}
