package signer

import (
	"math"
	"strings"
	"testing"
)

func TestParseFeeRate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint32
	}{
		{"0.1", 1000},
		{"0.001", 10},
		{"0.0005", 5},
		{"0.0001", 1},
		{"0", 0},
		{"0.0000", 0},
		{"1", 10000},
		{"1.5", 15000},
		{"00.1", 1000},
		{"429496.7295", math.MaxUint32},
		{"0000000000429496.7295", math.MaxUint32},
	} {
		got, err := ParseFeeRate(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseFeeRate(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseFeeRateRefusals(t *testing.T) {
	for _, tc := range []struct{ in, why string }{
		{"0.00001", "5 decimal places"},
		{"-0.1", "cannot be negative"},
		{"+0.1", "only digits"},
		{"1e-3", "only digits"},
		{"", "empty"},
		{".", "digits on both sides"},
		{"1.", "digits on both sides"},
		{".5", "digits on both sides"},
		{"." + strings.Repeat("5", 10_000), "digits on both sides"},
		{" 0.1", "only digits"},
		{"0.1 ", "only digits"},
		{"0.1.2", "only digits"},
		{"429496.7296", "too large"},
		{"99999999999", "too large"},
		{"0x10", "only digits"},
		{"abc", "only digits"},
		{"٣", "only digits"}, // Arabic-Indic three: a digit, but not ASCII
		{"0.1%", "only digits"},
		{"1_000", "only digits"},
		{strings.Repeat("9", 10_000), "too large"},
		{"0." + strings.Repeat("0", 10_000), "decimal places"},
	} {
		got, err := ParseFeeRate(tc.in)
		if err == nil {
			t.Errorf("ParseFeeRate(%.40q) = %d, want refusal (%s)", tc.in, got, tc.why)
			continue
		}
		if !strings.Contains(err.Error(), tc.why) {
			t.Errorf("ParseFeeRate(%.40q) error %q, want one mentioning %q", tc.in, err, tc.why)
		}
		if len(err.Error()) > 200 {
			t.Errorf("ParseFeeRate(%.40q) error is %d bytes long: it echoes the input", tc.in, len(err.Error()))
		}
	}
}

func TestFormatFeeRateRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		v    uint32
		want string
	}{
		{0, "0"}, {1, "0.0001"}, {5, "0.0005"}, {10, "0.001"}, {1000, "0.1"},
		{10000, "1"}, {15000, "1.5"}, {math.MaxUint32, "429496.7295"},
	} {
		if got := FormatFeeRate(tc.v); got != tc.want {
			t.Errorf("FormatFeeRate(%d) = %q, want %q", tc.v, got, tc.want)
		}
	}
	for _, v := range []uint32{0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 10001, 123456789, math.MaxUint32 - 1, math.MaxUint32} {
		back, err := ParseFeeRate(FormatFeeRate(v))
		if err != nil || back != v {
			t.Errorf("ParseFeeRate(FormatFeeRate(%d)) = %d, %v", v, back, err)
		}
	}
}
