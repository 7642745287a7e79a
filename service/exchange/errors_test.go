package exchange

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svcwallet/svcwallet/internal/safetext"
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
		{"404 with the published data-not-found code", &APIError{Status: http.StatusNotFound, Code: 1004}, CodeNotFound, true},
		{"404 of a wrong URL is not an unknown quote", &APIError{Status: http.StatusNotFound, Code: CodeNoSuchEndpoint}, CodeNotFound, false},
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
	got := safetext.Line(long, maxTextLen)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > maxTextLen+len("…") {
		t.Fatalf("cleanText cut %q badly", got)
	}
	if got := safetext.Line("line one\nline\ttwo\x1b[31m", maxTextLen); got != "line one line two" {
		t.Fatalf("safetext.Line(line one, line two with a CSI) = %q", got)
	}
}

// TestCodesFollowThePublishedTable: every code the client words (and the
// few it leaves to the service's message) is either the published
// service's, answered with its published status, or one of svcwallet's own
// outside every published range (9000 and up).
func TestCodesFollowThePublishedTable(t *testing.T) {
	published := map[Code]int{
		1000: 401, 1001: 403, 1003: 400, 1004: 404, 1006: 429, 1012: 400,
		2000: 403, 2001: 403, 2002: 403, 2005: 403, 2006: 403, 2007: 403,
		2008: 400, // D7; the published wallet login answers a too-distant expiration 400
		4000: 400, 4007: 400, 7500: 400, 7501: 400, 7502: 400, 7503: 400,
	}
	codes := []Code{CodeMalformed, CodeNoSuchEndpoint, CodeMethodNotAllowed}
	for code := range explanations {
		codes = append(codes, code)
	}
	for _, code := range codes {
		if status, ok := published[code]; ok {
			if code.Status() != status {
				t.Errorf("code %d: status %d, published %d", code, code.Status(), status)
			}
			continue
		}
		// Every published range lies below 9000.
		if code < 9000 {
			t.Errorf("code %d is neither published nor in svcwallet's own range (9000 and up)", code)
		}
	}
}
