package safetext_test

import (
	"testing"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// TestFileName: a suggested file name holding outside text is one every
// system writes as named: no character Windows refuses (a ':' writes an
// alternate data stream), no control or bidi override, no trailing dot or
// space, no reserved device name.
func TestFileName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"watchboard-prod-20261130.csv", "watchboard-prod-20261130.csv"},
		{"watchboard-prod:ads-20261130.csv", "watchboard-prod_ads-20261130.csv"},
		{`a<b>c"d/e\f|g?h*i.csv`, "a_b_c_d_e_f_g_h_i.csv"},
		{"a\x1b[31mred\u202e\x07b.csv", "aredb.csv"},
		{"name. .", "name"},
		{"name ", "name"},
		{"NUL.csv", "_NUL.csv"},
		{"con", "_con"},
		{"Com1.tar.gz", "_Com1.tar.gz"},
		{"LPT¹.csv", "_LPT¹.csv"},
		{"COM10.csv", "COM10.csv"},
		{"nullish.csv", "nullish.csv"},
		{"...", "_"},
		{"", "_"},
	} {
		if got := safetext.FileName(tc.in); got != tc.want {
			t.Errorf("FileName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
