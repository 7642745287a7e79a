// Package urlhost holds the one host rule of the URLs svcwallet dials: the
// config's and clef's endpoint. It is a leaf of its own, not part of
// safetext, so that golang.org/x/net/idna (a host's xn-- form, for the
// refusal's words) is linked into the two packages that check URLs, not
// into every package that shows text.
package urlhost

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// maxHostName is the most characters a host name has (RFC 1035's 253 in
// its written form, which is never shorter than the Unicode one).
const maxHostName = 253

// Check holds a URL's host to what reads as what is dialled: ASCII
// letters, digits, '-', '.' and '_' (253 at most), or an IP address, and a
// port from 1 to 65535. A look-alike letter (Cyrillic а for a) or an invisible one (a bidi
// override) would make every line naming the URL name a host it is not. It
// is the one host rule of the config's URLs and clef's endpoint; its error
// says the host's position, not the URL's, and names no setting.
func Check(u *url.URL) error {
	host, pos, zone := u.Hostname(), 0, false
	// An IPv6 address may name its interface after a % (fe80::1%25en0):
	// the address is checked as one, the interface's name as a name.
	if ip, name, _ := strings.Cut(host, "%"); net.ParseIP(ip) != nil {
		host, pos, zone = name, utf8.RuneCountInString(ip)+1, true
	}
	for _, r := range host {
		pos++
		if r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-._", r)) {
			continue
		}
		if zone {
			// An interface's name has no xn-- form: IDNA is for host names.
			return fmt.Errorf("the host holds U+%04X at position %d, which no interface name holds: write it in ASCII", r, pos)
		}
		return fmt.Errorf("the host holds U+%04X at position %d, which no host name holds: %s", r, pos, writeHostAs(host))
	}
	// The journal and a kept session record the host and read it back
	// bounded (config.Service.Check): a longer one would stop every withdrawal.
	if n := len(u.Hostname()); n > maxHostName {
		return fmt.Errorf("the host is %d characters long, longer than any host name (%d)", n, maxHostName)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s is no port: use one from 1 to 65535, or none", p)
		}
	}
	return nil
}

// writeHostAs says how to write host, which holds what no host name holds:
// its form under IDNA 2008's lookup rules (UTS 46 mapping, xn-- labels) when
// it has one. The host is still refused: a look-alike converted silently
// would load, where its xn-- spelling, written by hand, shows it is another
// host. A host holding a control, an invisible or a space-like character
// is given no form, whatever IDNA maps it to: it does not read as it is.
// Nor is one longer than any host name: punycode's cost grows with the
// square of a label's length (a 1 MiB config's host held a command 66 s).
func writeHostAs(host string) string {
	const general = "write the host in ASCII (a name in another script in its xn-- form)"
	if utf8.RuneCountInString(host) > maxHostName {
		return fmt.Sprintf("%s; it is longer than any host name (%d characters)", general, maxHostName)
	}
	for _, r := range host {
		if unicode.IsSpace(r) || !unicode.IsGraphic(r) {
			return general
		}
	}
	form, err := idna.Lookup.ToASCII(host)
	switch {
	case err != nil:
		// Not IDNA's words: they repeat the label as typed, look-alike
		// or right-to-left letters and all.
		return general + "; it is no international host name either"
	case form == "":
		return general
	case strings.Contains(form, "xn--"):
		return "write it in its xn-- form, " + form
	}
	return "write it in ASCII, " + form
}
