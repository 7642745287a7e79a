package safetext

// Shape checks written out rather than as regular expressions, which are
// compiled when their package starts: every command paid for them.

// HexDigits reports whether s is exactly n hex digits, in either case.
func HexDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

// DecimalDigits reports whether s is 1 to most ASCII decimal digits.
func DecimalDigits(s string, most int) bool {
	if len(s) == 0 || len(s) > most {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
