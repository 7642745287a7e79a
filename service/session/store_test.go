package session

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

var t0 = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

func testnet() config.Environment {
	return config.Environment{Name: "testnet", AuthURL: "https://auth.testnet.example", BaseURL: "https://api.testnet.example",
		MarketDataURL: "https://md.testnet.example", ChainID: 326}
}

func kept() exchange.Kept {
	return exchange.Kept{Cookie: "tok-4f2a9c", Session: exchange.Session{
		LoginResult: exchange.LoginResult{Status: "success", FundingAccountAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"},
		AccountID:   "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5", Expires: t0.Add(30 * 24 * time.Hour), Method: "API key"}}
}

func newStore(t *testing.T) Store {
	t.Helper()
	keyring.MockInit()
	return Store{File: filepath.Join(t.TempDir(), "state", FileName), Now: func() time.Time { return t0 }}
}

// TestKeptInTheCredentialStore: auth login's session and API key go to the
// credential store, come back whole for the same environment, and are
// gone after Forget.
func TestKeptInTheCredentialStore(t *testing.T) {
	s := newStore(t)
	e := testnet()
	where, err := s.Save(e, kept(), "live-api-key-1", false)
	if err != nil || where != InKeyring {
		t.Fatalf("Save: %v, %v", where, err)
	}
	if b, err := os.ReadFile(s.File); err != nil || strings.Contains(string(b), "tok-4f2a9c") || strings.Contains(string(b), "live-api-key") {
		t.Errorf("the file holds a secret, or none was written: %s, %v", b, err)
	}
	l, err := s.Load(e)
	if err != nil || l.Where != InKeyring || l.APIKey != "live-api-key-1" || l.Kept() != kept() {
		t.Fatalf("Load: %+v, %v", l, err)
	}
	if had, err := s.Forget("testnet"); !had || err != nil {
		t.Errorf("Forget: %v, %v", had, err)
	}
	if _, err := s.Load(e); !errors.Is(err, ErrNone) {
		t.Errorf("after Forget: %v", err)
	}
	if _, err := keyring.Get(keyringService, apiKeyUser("testnet")); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("the API key stays after Forget: %v", err)
	}
}

// TestInsecureStorageKeepsTheSessionAlone: with --insecure-storage the
// session goes to a 0600 file, the API key nowhere.
func TestInsecureStorageKeepsTheSessionAlone(t *testing.T) {
	s := newStore(t)
	e := testnet()
	if where, err := s.Save(e, kept(), "live-api-key-1", true); err != nil || where != InFile {
		t.Fatalf("Save: %v, %v", where, err)
	}
	b, err := os.ReadFile(s.File)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "live-api-key-1") {
		t.Errorf("the API key is in the file: %s", b)
	}
	if fi, _ := os.Stat(s.File); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if _, err := keyring.Get(keyringService, apiKeyUser("testnet")); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("an API key in the store: %v", err)
	}
	l, err := s.Load(e)
	if err != nil || l.Where != InFile || l.APIKey != "" || l.Kept() != kept() {
		t.Fatalf("Load: %+v, %v", l, err)
	}
}

// TestKeptSessionBoundToItsService: a session kept for one service is not
// given back when the environment's name now reaches another host or chain,
// nor is the API key kept with it.
func TestKeptSessionBoundToItsService(t *testing.T) {
	s := newStore(t)
	if _, err := s.Save(testnet(), kept(), "live-api-key-1", false); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*config.Environment){
		"base host":   func(e *config.Environment) { e.BaseURL = "https://api.attacker.example" },
		"auth host":   func(e *config.Environment) { e.AuthURL = "https://auth.attacker.example" },
		"market host": func(e *config.Environment) { e.MarketDataURL = "https://md.attacker.example" },
		"chain id":    func(e *config.Environment) { e.ChainID = 325 },
	} {
		e := testnet()
		change(&e)
		l, err := s.Load(e)
		var other *OtherServiceError
		if !errors.As(err, &other) || l.Cookie != "" || l.APIKey != "" {
			t.Errorf("%s changed: %+v, %v; want an OtherServiceError and nothing to send", name, l, err)
		}
		if s.apiKey(e) != "" {
			t.Errorf("%s changed: the API key is given", name)
		}
	}
}

// TestKeptSessionReadBackIsChecked: a record that is not a session's shape
// (cookie, account id, expiry, hosts, the wallet a wallet login recorded:
// Serves trusts it) is refused, never sent; an ended one
// is an ExpiredError.
func TestKeptSessionReadBackIsChecked(t *testing.T) {
	s := newStore(t)
	e := testnet()
	good := Entry{Env: "testnet", Bound: BoundOf(e), Cookie: "tok", AccountID: "0xabc", Expires: t0.Add(time.Hour), Method: "wallet"}
	if err := s.writeRecord("testnet", record{Where: InKeyring}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		change func(*Entry)
		want   string
	}{
		"cookie with a semicolon":   {func(en *Entry) { en.Cookie = "tok; Domain=evil" }, "cookie"},
		"cookie with a line end":    {func(en *Entry) { en.Cookie = "tok\r\nX-Injected: 1" }, "cookie"},
		"empty cookie":              {func(en *Entry) { en.Cookie = "" }, "cookie"},
		"long cookie":               {func(en *Entry) { en.Cookie = strings.Repeat("a", maxCookie+1) }, "cookie"},
		"account id with a space":   {func(en *Entry) { en.AccountID = "0xabc evil" }, "account id"},
		"account id with escapes":   {func(en *Entry) { en.AccountID = "\x1b[31m" }, "account id"},
		"no account id":             {func(en *Entry) { en.AccountID = "" }, "account id"},
		"no expiry":                 {func(en *Entry) { en.Expires = time.Time{} }, "no end"},
		"expiry years ahead":        {func(en *Entry) { en.Expires = t0.Add(MaxLifetime + time.Hour) }, "days ahead"},
		"unknown method":            {func(en *Entry) { en.Method = "magic" }, "way of logging in"},
		"funding not an address":    {func(en *Entry) { en.Funding = "0xnot" }, "funding"},
		"another environment's":     {func(en *Entry) { en.Env = "production" }, "another environment"},
		"a host with a path":        {func(en *Entry) { en.Bound.AuthHost = "auth/x" }, "host"},
		"a sub-account with quotes": {func(en *Entry) { en.SubAccount = `"1"` }, "sub-account"},
		"wallet with escapes":       {func(en *Entry) { en.Wallet = "\x1b[31m0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }, "wallet"},
		"wallet not an address":     {func(en *Entry) { en.Wallet = "0xnot" }, "wallet"},
		"wallet of an API key":      {func(en *Entry) { en.Method, en.Wallet = "API key", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" }, "wallet"},
	} {
		en := good
		c.change(&en)
		b, _ := json.Marshal(en)
		if err := keyring.Set(keyringService, sessionUser("testnet"), string(b)); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load(e)
		var u *UnreadableError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a refusal naming %q", name, err, c.want)
		}
	}
	b, _ := json.Marshal(Entry{Env: "testnet", Bound: BoundOf(e), Cookie: "tok", AccountID: "0xabc", Expires: t0, Method: "wallet"})
	_ = keyring.Set(keyringService, sessionUser("testnet"), string(b))
	var exp *ExpiredError
	if _, err := s.Load(e); !errors.As(err, &exp) || exp.Where != InKeyring {
		t.Errorf("an ended session: %v", err)
	}
	_ = keyring.Set(keyringService, sessionUser("testnet"), "{not json")
	if _, err := s.Load(e); !errors.As(err, new(*UnreadableError)) {
		t.Errorf("not JSON: %v", err)
	}
	// A field named twice reads as its last value to encoding/json and
	// its first to another reader: refused as an answer is.
	gb, _ := json.Marshal(good)
	twice := strings.Replace(string(gb), `{`, `{"cookie":"other",`, 1)
	_ = keyring.Set(keyringService, sessionUser("testnet"), twice)
	if _, err := s.Load(e); !errors.As(err, new(*UnreadableError)) {
		t.Errorf("a field named twice: %v", err)
	}
	good.Expires = t0.Add(time.Hour)
	b, _ = json.Marshal(good)
	_ = keyring.Set(keyringService, sessionUser("testnet"), string(b))
	for _, key := range []string{"", "key with space", strings.Repeat("k", exchange.MaxAPIKey+1), "key\x1b"} {
		kb, _ := json.Marshal(keptKey{Bound: BoundOf(e), Key: key})
		_ = keyring.Set(keyringService, apiKeyUser("testnet"), string(kb))
		if l, err := s.Load(e); err != nil || l.APIKey != "" {
			t.Errorf("API key %q read back: %q, %v", key, l.APIKey, err)
		}
	}
	kb, _ := json.Marshal(keptKey{Bound: BoundOf(e), Key: "good-key"})
	_ = keyring.Set(keyringService, apiKeyUser("testnet"), strings.Replace(string(kb), `{`, `{"KEY":"other-key",`, 1))
	if l, err := s.Load(e); err != nil || l.APIKey != "" {
		t.Errorf("an API key named twice read back: %q, %v", l.APIKey, err)
	}
}

// TestNoCredentialStore: where none can be reached (a server, CI), Save
// says so, and Available does; Load never reaches for it when the session
// file names nothing there, so no command of someone who never kept a
// session touches the store.
func TestNoCredentialStore(t *testing.T) {
	s := newStore(t)
	keyring.MockInitWithError(errors.New("dbus: no session bus"))
	if _, err := s.Load(testnet()); !errors.Is(err, ErrNone) {
		t.Errorf("Load with nothing kept: %v, want ErrNone without reaching the store", err)
	}
	var no *NoStoreError
	if err := s.Available(); !errors.As(err, &no) {
		t.Errorf("Available: %v", err)
	}
	if _, err := s.Save(testnet(), kept(), "k", false); !errors.As(err, &no) {
		t.Errorf("Save: %v", err)
	}
	if where, err := s.Save(testnet(), kept(), "k", true); err != nil || where != InFile {
		t.Errorf("Save to the file: %v, %v", where, err)
	}
	if l, err := s.Load(testnet()); err != nil || l.Where != InFile {
		t.Errorf("Load from the file with no store: %+v, %v", l, err)
	}
	if names, err := s.Names(); err != nil || len(names) != 1 || names[0] != "testnet" {
		t.Errorf("Names: %v, %v", names, err)
	}
	if had, err := s.Forget("testnet"); !had || err != nil {
		t.Errorf("Forget: %v, %v", had, err)
	}
	if _, err := s.Load(testnet()); !errors.Is(err, ErrNone) {
		t.Errorf("after Forget: %v", err)
	}
}

// TestRefusedSessionKeptAsEnded: a kept session the service refused is
// kept as ended at the refusal, in either place, so Load says so and no
// command sends it again; a session kept since the refused one stays.
func TestRefusedSessionKeptAsEnded(t *testing.T) {
	for _, insecure := range []bool{false, true} {
		s := newStore(t)
		e := testnet()
		if _, err := s.Save(e, kept(), "", insecure); err != nil {
			t.Fatal(err)
		}
		other := kept()
		other.Cookie = "tok-other"
		if err := s.Refused(e, other, t0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(e); err != nil {
			t.Fatalf("a refusal of another session ended the kept one: %v", err)
		}
		if err := s.Refused(e, kept(), t0.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load(e)
		exp, ok := errors.AsType[*ExpiredError](err)
		if !ok || !exp.Entry.Refused || !strings.Contains(err.Error(), "refused by the service at 2026-11-28T11:59:00Z") {
			t.Fatalf("insecure %v: Load after the refusal: %v", insecure, err)
		}
	}
}

// TestForgetPastAnUnreadableFile: the session file unreadable (an edit, a
// newer version's shape, a link), auth logout still forgets what the
// credential store keeps for the environment, the session and its API
// key: it failed and left both there, and the file removed by hand, it
// said nothing was kept while the store kept the key. A session the file
// itself kept cannot be forgotten past it, and Forget says so.
func TestForgetPastAnUnreadableFile(t *testing.T) {
	for _, unreadable := range []func(s Store) error{
		func(s Store) error {
			return os.WriteFile(s.File, []byte(`{"testnet":{"where":"keyring","since":"a newer version"}}`), 0o600)
		},
		func(s Store) error {
			if err := os.Rename(s.File, s.File+".real"); err != nil {
				return err
			}
			return os.Symlink(s.File+".real", s.File)
		},
	} {
		s := newStore(t)
		if _, err := s.Save(testnet(), kept(), "live-api-key-1", false); err != nil {
			t.Fatal(err)
		}
		if err := unreadable(s); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Load(testnet()); !errors.As(err, new(*UnreadableError)) {
			t.Fatalf("the file made unreadable reads: %v", err)
		}
		if had, err := s.Forget("testnet"); !had || err != nil {
			t.Errorf("Forget past an unreadable file: %v, %v; want it forgotten", had, err)
		}
		for _, user := range []string{sessionUser("testnet"), apiKeyUser("testnet")} {
			if _, err := keyring.Get(keyringService, user); !errors.Is(err, keyring.ErrNotFound) {
				t.Errorf("%s stays in the credential store after Forget: %v", user, err)
			}
		}
		if had, err := s.Forget("testnet"); had || err == nil {
			t.Errorf("Forget again, nothing in the store: %v, %v; want the file's refusal", had, err)
		}
	}
}

// TestReplacedFileForgetsWhatItNamed: a login over a session file that
// cannot be read replaces it; the environments it named lose their
// records, so what the credential store keeps for them (sessions, API
// keys) would stay there unlisted, unused and unforgettable: auth logout
// said none was kept. They are forgotten with the file; the login's own
// environment keeps what it just put there.
func TestReplacedFileForgetsWhatItNamed(t *testing.T) {
	s := newStore(t)
	prod := testnet()
	prod.Name = "prod"
	for _, e := range []config.Environment{testnet(), prod} {
		if _, err := s.Save(e, kept(), "live-api-key-"+e.Name, false); err != nil {
			t.Fatal(err)
		}
	}
	// A newer version's shape: a field this one does not know; and one
	// past the 1 MiB a session file is read whole to.
	for _, file := range []string{`{"prod":{"where":"keyring","v":2},"testnet":{"where":"keyring","v":2}}`,
		`{"testnet":{"where":"keyring","pad":"` + strings.Repeat("x", 3<<19) + `"},"prod":{"where":"keyring","v":[2,{"a":[]}]}}`} {
		for _, e := range []config.Environment{testnet(), prod} {
			if _, err := s.Save(e, kept(), "live-api-key-"+e.Name, false); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(s.File, []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Save(testnet(), kept(), "live-api-key-again", false); err != nil {
			t.Fatal(err)
		}
		for _, user := range []string{sessionUser("prod"), apiKeyUser("prod")} {
			if _, err := keyring.Get(keyringService, user); !errors.Is(err, keyring.ErrNotFound) {
				t.Errorf("a file of %d bytes: %s stays in the credential store, its record gone from the file: %v", len(file), user, err)
			}
		}
		if l, err := s.Load(testnet()); err != nil || l.APIKey != "live-api-key-again" {
			t.Errorf("the login that replaced the file: %+v, %v", l, err)
		}
	}
}
