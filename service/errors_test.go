package service

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"svcwallet/clean"
)

func TestAPIErrorIs(t *testing.T) {
	cases := []struct {
		name string
		err  *APIError
		code Code
		want bool
	}{
		{"same code", &APIError{Status: 403, Code: CodeAddressFlagged}, CodeAddressFlagged, true},
		{"other code", &APIError{Status: 403, Code: CodeAddressFlagged}, CodeDailyLimit, false},
		{"bare 404 is not found", &APIError{Status: http.StatusNotFound}, CodeNotFound, true},
		{"404 of a wrong URL is not an unknown quote", &APIError{Status: http.StatusNotFound, Code: 1004}, CodeNotFound, false},
		{"bare 401 is unauthenticated", &APIError{Status: http.StatusUnauthorized}, CodeNotAuthenticated, true},
		{"bare 429 is rate limited", &APIError{Status: http.StatusTooManyRequests}, CodeRateLimited, true},
		{"bare 500 is nothing in particular", &APIError{Status: 500}, CodeNotFound, false},
	}
	for _, c := range cases {
		if got := errors.Is(c.err, c.code); got != c.want {
			t.Errorf("%s: errors.Is = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCleanTextKeepsCharactersWhole(t *testing.T) {
	long := strings.Repeat("é", 150) // 300 bytes
	got := clean.Line(long, maxTextLen)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > maxTextLen+len("…") {
		t.Fatalf("cleanText cut %q badly", got)
	}
	if got := clean.Line("line one\nline\ttwo\x1b[31m", maxTextLen); got != "line one line two" {
		t.Fatalf("clean.Line(line one, line two with a CSI) = %q", got)
	}
}
