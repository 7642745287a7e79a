package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/svcwallet/svcwallet/internal/urlhost"
)

// CheckURL holds one configured URL to what Validate says: absolute, https
// or loopback http, no user name nor password, a host that reads as it is,
// printable ASCII, nothing after the path. env add asks it of each answer
// as it is typed.
func CheckURL(raw string) error {
	if raw == "" {
		return errors.New("missing")
	}
	// First, and never quoted whole: what is shown of a URL goes to the
	// screen, doctor's report and logs, and a password there is leaked.
	if hasUserinfo(raw) {
		return errors.New(userinfoRefusal(raw))
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%s is not an absolute URL", shownURL(raw))
	}
	if err := checkHost(raw, u); err != nil {
		return err
	}
	if err := urlCharacter(raw); err != nil {
		return fmt.Errorf("%s %v", shownURL(raw), err)
	}
	// The endpoints' paths are appended to the URL: after a ? or # they
	// would be a query or a fragment, and every call would go to one path.
	if strings.ContainsAny(raw, "?#") {
		return fmt.Errorf("%s: a query or fragment (? or #) would swallow the paths added after it: end the URL before it", shownURL(raw))
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if isLoopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("%s uses http on a non-loopback host; use https", shownURL(raw))
	}
	return fmt.Errorf("%s: scheme must be https", shownURL(raw))
}

// shownURL is raw as a refusal writes it: quoted in ASCII, a letter
// beyond it escaped (api.ex\u0430mple.com: a look-alike written raw would
// name the host it imitates), and its first 100 characters only (a 1 MiB
// config's URL would fill the screen). Its query or fragment is cut
// ("?…"): ?apikey= or #token= holds a secret as user:pass@ does, and a
// refusal goes to doctor's report, which is pasted into tickets.
func shownURL(raw string) string {
	query := ""
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		raw, query = raw[:i+1], "…"
	}
	if utf8.RuneCountInString(raw) > maxShownURL {
		return fmt.Sprintf("%+.*q…", maxShownURL, raw)
	}
	q := fmt.Sprintf("%+q", raw)
	return q[:len(q)-1] + query + `"`
}

// maxShownURL is how many of a URL's characters its refusal writes.
const maxShownURL = 100

// checkHost holds a URL's host to urlhost.Check, the one host rule
// (clef's endpoint is held to it too), naming the URL.
func checkHost(raw string, u *url.URL) error {
	if err := urlhost.Check(u); err != nil {
		return fmt.Errorf("%s: %w", shownURL(raw), err)
	}
	return nil
}

// urlAuthority splits raw into what comes before its authority (the scheme
// and "//") and the authority itself, found by hand so that a URL url.Parse
// refuses is still seen; a raw without "//" is all authority.
func urlAuthority(raw string) (before, authority string) {
	if i := strings.Index(raw, "//"); i >= 0 {
		before, raw = raw[:i+2], raw[i+2:]
	}
	if end := strings.IndexAny(raw, "/?#"); end >= 0 {
		raw = raw[:end]
	}
	return before, raw
}

// hasUserinfo reports whether raw's authority holds "user@" or "user:pass@".
func hasUserinfo(raw string) bool {
	_, authority := urlAuthority(raw)
	return strings.Contains(authority, "@")
}

// userinfoRefusal says that raw holds a user name or password, showing raw
// with them cut out.
func userinfoRefusal(raw string) string {
	before, authority := urlAuthority(raw)
	host := authority[strings.LastIndex(authority, "@")+1:]
	return fmt.Sprintf("%.80q holds a user name or password (user:…@): remove it", before+"…@"+host)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// urlCharacter names the first character of a URL that is not printable
// ASCII: a URL is written percent-encoded, and a bidi override or a space
// in one printed would make its line read otherwise than it goes.
func urlCharacter(link string) error {
	pos := 0
	for _, r := range link {
		pos++
		if r <= ' ' || r > '~' {
			return fmt.Errorf("holds U+%04X at position %d: a URL is printable ASCII: remove the character, or write it percent-encoded (%%C3%%A9 for é)", r, pos)
		}
	}
	return nil
}
