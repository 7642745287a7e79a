package session

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestKeepsEveryCookieALoginTakes: auth login keeps the session cookie of
// any Set-Cookie the client logs in with (Go's reader takes a space or a
// comma in a value, as some services send), and reads it back: a refusal
// came after the login had succeeded, and no session was kept.
func TestKeepsEveryCookieALoginTakes(t *testing.T) {
	for _, set := range []string{"sid=v1,4f2a9c; Path=/", "sid=tok 4f2a9c; Path=/", `sid="q:4f2a"; Path=/`} {
		h := http.Header{"Set-Cookie": {set}}
		cookies := (&http.Response{Header: h}).Cookies()
		if len(cookies) != 1 {
			t.Fatalf("%s: Go's reader took %d cookies", set, len(cookies))
		}
		s, k := newStore(t), kept()
		k.Cookie = cookies[0].Value
		if _, err := s.Save(testnet(), k, "", true); err != nil {
			t.Errorf("%s: %v", set, err)
			continue
		}
		l, err := s.Load(testnet())
		if err != nil || l.Cookie != k.Cookie {
			t.Errorf("%s: read back %q, %v", set, l.Cookie, err)
		}
	}
	for _, bad := range []string{"a\x00b", "a;b", `a"b`, "a\\b", "a\x7fb", "caf\u00e9"} {
		s, k := newStore(t), kept()
		k.Cookie = bad
		if _, err := s.Save(testnet(), k, "", true); err == nil {
			t.Errorf("%q kept: no cookie's value holds it", bad)
		}
	}
}

// TestUnkeptSaysWhy: a login's session that cannot be kept is said of
// that login, and a cookie with no end is named as such; it was "the kept
// session () cannot be used: it has no end".
func TestUnkeptSaysWhy(t *testing.T) {
	k := kept()
	k.Expires = time.Time{}
	_, err := newStore(t).Save(testnet(), k, "", true)
	if _, ok := errors.AsType[*UnkeptError](err); !ok || !strings.Contains(err.Error(), "its cookie sets no end (no Max-Age or Expires)") || strings.Contains(err.Error(), "()") {
		t.Fatalf("a session cookie without an end: %v (%T)", err, err)
	}
	k = kept()
	k.Cookie = "a;b"
	_, err = newStore(t).Save(testnet(), k, "", true)
	if unkept, ok := errors.AsType[*UnkeptError](err); !ok || unkept.Error() != "the service's session cannot be kept: its cookie is not a cookie's value" {
		t.Fatalf("a cookie holding ';': %v", err)
	}
}
