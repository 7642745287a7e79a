package session

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// TestKeptSessionUnderAnotherSpelling: a session kept for an environment
// is used when its URLs spell the same hosts otherwise (upper case, a
// trailing dot, the default port, leading zeros in it), and a session an
// earlier version kept under such a spelling is used by the plain one,
// its API key too: both were refused as another service's.
func TestKeptSessionUnderAnotherSpelling(t *testing.T) {
	s := newStore(t)
	if _, err := s.Save(testnet(), kept(), "live-api-key-1", false); err != nil {
		t.Fatal(err)
	}
	for _, spelt := range [][3]string{
		{"https://API.testnet.example./", "https://auth.testnet.example:0443", "https://md.testnet.example:443/"},
		{"https://api.testnet.example:00443/api", "https://AUTH.testnet.example.", "https://md.testnet.example.:443"},
	} {
		e := testnet()
		e.BaseURL, e.AuthURL, e.MarketDataURL = spelt[0], spelt[1], spelt[2]
		l, err := s.Load(e)
		if err != nil || l.Kept() != kept() || l.APIKey != "live-api-key-1" {
			t.Errorf("Load through %v: %+v, %v; want the kept session and its API key", spelt, l, err)
		}
	}
	earlier := Entry{Env: "testnet", Bound: Bound{Service: testnet().Service(), AuthHost: "auth.testnet.example.", MarketHost: "md.testnet.example:0443"},
		Cookie: "tok", AccountID: "0xabc", Expires: t0.Add(time.Hour), Method: "API key"}
	earlier.Bound.Service.Host = "api.testnet.example."
	b, _ := json.Marshal(earlier)
	kb, _ := json.Marshal(keptKey{Bound: earlier.Bound, Key: "live-api-key-2"})
	if keyring.Set(keyringService, sessionUser("testnet"), string(b)) != nil || keyring.Set(keyringService, apiKeyUser("testnet"), string(kb)) != nil {
		t.Fatal("the credential store refused the earlier entry")
	}
	if l, err := s.Load(testnet()); err != nil || l.Cookie != "tok" || l.APIKey != "live-api-key-2" {
		t.Errorf("an earlier version's spelling: %+v, %v; want its session and API key", l, err)
	}
}

// TestKeptSessionNotSentOverAnotherScheme: a session kept for an
// environment at https://localhost (a proxy on :443) is another service's
// once its URLs say http://localhost (a sandbox on :80): its cookie and
// API key are not sent there, in the clear.
func TestKeptSessionNotSentOverAnotherScheme(t *testing.T) {
	s := newStore(t)
	e := testnet()
	e.BaseURL, e.AuthURL, e.MarketDataURL = "https://localhost", "https://localhost/auth", "https://localhost/md"
	if _, err := s.Save(e, kept(), "live-api-key-1", false); err != nil {
		t.Fatal(err)
	}
	if l, err := s.Load(e); err != nil || l.Kept() != kept() {
		t.Fatalf("Load where it was kept: %+v, %v", l, err)
	}
	clear := e
	clear.BaseURL, clear.AuthURL, clear.MarketDataURL = "http://localhost", "http://localhost/auth", "http://localhost/md"
	l, err := s.Load(clear)
	if _, other := errors.AsType[*OtherServiceError](err); !other || l.Cookie != "" || l.APIKey != "" {
		t.Errorf("Load over http: %+v, %v; want another service's, nothing given", l, err)
	}
}

// TestKeptOnLoopbackByAnEarlierVersion: a session and API key an earlier
// version kept for http://localhost (its hosts without their port,
// "localhost") are still used there, now that this version records the
// port on loopback ("localhost:80").
func TestKeptOnLoopbackByAnEarlierVersion(t *testing.T) {
	s := newStore(t)
	e := testnet()
	e.BaseURL, e.AuthURL, e.MarketDataURL = "http://localhost", "http://localhost/auth", "http://localhost:80/md"
	if _, err := s.Save(e, kept(), "live-api-key-1", false); err != nil {
		t.Fatal(err)
	}
	earlier := Entry{Env: "testnet", Bound: Bound{Service: e.Service(), AuthHost: "localhost", MarketHost: "localhost"},
		Cookie: "tok", AccountID: "0xabc", Expires: t0.Add(time.Hour), Method: "API key"}
	earlier.Bound.Service.Host = "localhost"
	b, _ := json.Marshal(earlier)
	kb, _ := json.Marshal(keptKey{Bound: earlier.Bound, Key: "live-api-key-2"})
	if keyring.Set(keyringService, sessionUser("testnet"), string(b)) != nil || keyring.Set(keyringService, apiKeyUser("testnet"), string(kb)) != nil {
		t.Fatal("the credential store refused the earlier entry")
	}
	if l, err := s.Load(e); err != nil || l.Cookie != "tok" || l.APIKey != "live-api-key-2" {
		t.Errorf("kept by an earlier version for http://localhost: %+v, %v; want its session and API key", l, err)
	}
}
