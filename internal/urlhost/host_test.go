package urlhost_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/urlhost"
)

// TestCheckGivesTheXNForm: a host in another script is refused with
// the spelling to write instead, computed under IDNA 2008's lookup rules
// (mapped first: BÜCHER as bücher, ß kept, a fullwidth dot as a dot), not
// as the punycode of the text as typed; that spelling loads. A host holding
// an invisible character is given no form.
func TestCheckGivesTheXNForm(t *testing.T) {
	for _, tc := range []struct{ host, words, form string }{
		{"api.ex\u0430mple.com", "U+0430 at position 7, which no host name holds: write it in its xn-- form, api.xn--exmple-4nf.com", "api.xn--exmple-4nf.com"},
		{"BÜCHER.example", "write it in its xn-- form, xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"fa\u00df.de", "write it in its xn-- form, xn--fa-hia.de", "xn--fa-hia.de"},
		{"api\uff0eexample.com", "U+FF0E at position 4, which no host name holds: write it in ASCII, api.example.com", "api.example.com"},
		{"api.exa\u200bmple.com", "U+200B at position 8, which no host name holds: write the host in ASCII (a name in another script in its xn-- form)", ""},
		{"moc.\u202eelpmaxe.com", "U+202E at position 5", ""},
		{"exa\u00a0mple.com", "U+00A0 at position 4, which no host name holds: write the host in ASCII (a name", ""},
		{"my_host.ex\u0430mple", "write the host in ASCII (a name in another script in its xn-- form); it is no international host name either", ""},
		// IDNA's own refusal would repeat the label as typed.
		{"ex--\u0430.com", "U+0430 at position 5, which no host name holds: write the host in ASCII (a name in another script in its xn-- form); it is no international host name either", ""},
		{"\u05d0-.com", "U+05D0 at position 1", ""},
		// An interface's name is no host name: it has no xn-- form.
		{"[fe80::1%\u0435n0]", "U+0435 at position 9, which no interface name holds: write it in ASCII", ""},
	} {
		u := &url.URL{Scheme: "https", Host: tc.host}
		err := urlhost.Check(u)
		if err == nil || !strings.Contains(err.Error(), tc.words) {
			t.Errorf("%q: error %v, want %q", tc.host, err, tc.words)
			continue
		}
		// Named as U+XXXX, never written: a look-alike or a right-to-left
		// letter would read as another host or reorder the line.
		if strings.ContainsFunc(err.Error(), func(r rune) bool { return r < ' ' || r > '~' }) {
			t.Errorf("%q: the refusal writes what is not printable ASCII: %q", tc.host, err)
		}
		if tc.form == "" {
			if strings.Contains(err.Error(), "form, ") || strings.Contains(err.Error(), "ASCII, ") {
				t.Errorf("%q: a host that does not read as it is is given a form: %v", tc.host, err)
			}
			continue
		}
		if err := urlhost.Check(&url.URL{Scheme: "https", Host: tc.form + ":443"}); err != nil {
			t.Errorf("the form given for %q, %s, is refused: %v", tc.host, tc.form, err)
		}
	}
	for _, host := range []string{"xn--80ak6aa92e.com", "api.example.com:443", "[2001:db8::1]:8443", "[fe80::1%en0]:8443", "my_host.example"} {
		if err := urlhost.Check(&url.URL{Scheme: "https", Host: host}); err != nil {
			t.Errorf("%s refused: %v", host, err)
		}
	}
	for _, host := range []string{"api.example.com:0", "api.example.com:99999"} {
		if err := urlhost.Check(&url.URL{Scheme: "https", Host: host}); err == nil || !strings.Contains(err.Error(), "is no port") {
			t.Errorf("%s: error %v, want no port", host, err)
		}
	}
}

// TestOverlongHostGivenNoForm: a host longer than any host name (253
// characters) is refused without an xn-- form. Punycode's cost grows with
// the square of a label's length: a 1 MiB config's 200,000 CJK letters held
// every command 66 s, and the refusal would have repeated them all.
func TestOverlongHostGivenNoForm(t *testing.T) {
	err := urlhost.Check(&url.URL{Scheme: "https", Host: strings.Repeat("\u00e9", 254) + ".com"})
	if err == nil || strings.Contains(err.Error(), "form, xn--") || !strings.Contains(err.Error(), "longer than any host name") || len(err.Error()) > 300 {
		t.Fatalf("an overlong host: error %.400v, want one refusing it without its xn-- form", err)
	}
	// A long host that is still a name is given its form.
	if err := urlhost.Check(&url.URL{Scheme: "https", Host: strings.Repeat("\u00e9", 50) + ".com"}); err == nil || !strings.Contains(err.Error(), "xn--") {
		t.Errorf("a 54-character host: error %v, want its xn-- form", err)
	}
}

// TestOverlongASCIIHostRefused: an ASCII host longer than any host name is
// refused, as the journal would refuse to record it.
func TestOverlongASCIIHostRefused(t *testing.T) {
	err := urlhost.Check(&url.URL{Scheme: "https", Host: strings.Repeat("a", 250) + ".com:8443"})
	if err == nil || !strings.Contains(err.Error(), "254 characters long, longer than any host name (253)") {
		t.Fatalf("a 254-character host: error %v, want it refused", err)
	}
	if err := urlhost.Check(&url.URL{Scheme: "https", Host: strings.Repeat("a", 249) + ".com:8443"}); err != nil {
		t.Fatalf("a 253-character host refused: %v", err)
	}
}
