package kit

import "testing"

// TestAmountNeverLosesDigits: an amount too wide for its column drops its
// unit, then shows "…", and is never drawn with digits cut off.
func TestAmountNeverLosesDigits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"23.5 USDT", 9, "23.5 USDT"},
		{"23.5 USDT", 8, "23.5"},
		{"1234.567891 USDT", 11, "1234.567891"},
		{"1234.567891 USDT", 10, "…"},
	} {
		if got := fitAmount(tc.in, tc.w); got != tc.want {
			t.Errorf("fitAmount(%q, %d) = %q, want %q", tc.in, tc.w, got, tc.want)
		}
	}
}
