// Package session keeps a login between runs (svcwallet auth login): the
// session cookie, and the API key of an API-key login, in the system's
// credential store (go-keyring: the macOS Keychain, the Secret Service,
// the Windows Credential Manager), or the session alone in a 0600 file in
// the state folder where the user asked for it. What is kept is bound to
// the hosts and chain id it was made for, and is never used for another;
// everything read back is checked before the client sends any of it.
package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/zalando/go-keyring"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// keyringService is the name svcwallet's entries have in the store.
const keyringService = "svcwallet"

// FileName is the session file, in the state folder: which environments
// have a session kept and where, and the sessions kept in the file itself
// (insecure storage). Only an environment it names is looked up in the
// credential store, so a command run by someone who never kept a session
// never reaches the store.
const FileName = "sessions.json"

// Where says where a session is kept.
type Where string

const (
	InKeyring Where = "keyring" // the system's credential store
	InFile    Where = "file"    // the 0600 file, asked for
)

// Store keeps sessions and API keys per environment name.
type Store struct {
	// File is the session file (FileName in the state folder).
	File string
	// Now is the clock expiry is judged by.
	Now func() time.Time
}

// Bound is what a kept secret may be sent to: the environment's service
// (base_url's host and the chain id) and its other two hosts. Any change
// of one makes the kept session another service's.
type Bound struct {
	Service    config.Service `json:"service"`
	AuthHost   string         `json:"auth_host"`
	MarketHost string         `json:"market_data_host"`
}

// BoundOf is what e's secrets are bound to.
func BoundOf(e config.Environment) Bound {
	host := func(u string) string {
		x := e
		x.BaseURL = u
		return x.Service().Host
	}
	return Bound{Service: e.Service(), AuthHost: host(e.AuthURL), MarketHost: host(e.MarketDataURL)}
}

// boundTo reports whether b is e's bound (BoundOf), its hosts as an
// earlier version spelt them (api.example.com., :0443) read as one.
func (b Bound) boundTo(e config.Environment) bool {
	return e.Reaches(b.Service) && config.SameHost(e.AuthURL, b.AuthHost) && config.SameHost(e.MarketDataURL, b.MarketHost)
}

// Entry is one kept session.
type Entry struct {
	Env   string `json:"env"`
	Bound Bound  `json:"bound"`
	// Session's fields, as Login gave them.
	Cookie     string    `json:"cookie"`
	AccountID  string    `json:"account_id"`
	Expires    time.Time `json:"expires"`
	Method     string    `json:"method"`
	Funding    string    `json:"funding_account_address,omitempty"`
	SubAccount string    `json:"sub_account_id,omitempty"`
	// Wallet is the address a wallet login signed with (never its key);
	// "" for an API key, and in entries kept before it was recorded.
	Wallet string `json:"wallet,omitempty"`
	// Refused: the service refused the session at Expires, before the
	// end its cookie named (Store.Refused).
	Refused bool `json:"refused,omitempty"`
}

// Kept is the entry as the client adopts it.
func (e Entry) Kept() exchange.Kept {
	return exchange.Kept{Cookie: e.Cookie, Session: exchange.Session{
		LoginResult: exchange.LoginResult{Status: "success", FundingAccountAddress: e.Funding, SubAccountID: e.SubAccount},
		AccountID:   e.AccountID, Expires: e.Expires, Method: e.Method, Wallet: e.Wallet,
	}}
}

// Loaded is what Load found for an environment.
type Loaded struct {
	Entry
	Where Where
	// APIKey is the API key kept with it (an API-key login in the
	// credential store), or "".
	APIKey string
}

// Signing is the signing key a command is given beside its login (the
// environment's signer, $SVCWALLET_PRIVATE_KEY, the key a withdrawal signs
// with): Given, and its address when that is known without opening it.
type Signing struct {
	Given  bool
	Wallet common.Address
}

// Serves reports whether the kept session is the one to act with when
// apiKey was given to log in with ("" for none) and signing beside it: an
// API key given comes before a kept session, unless it is the key kept
// with it, so a command never acts as the kept session's account (its
// deposit addresses, its withdrawals) while the key it was given is
// another account's. A wallet's session serves beside a signing key only
// when that key is known to be the wallet that logged in: one of another
// wallet, one whose address is known only once opened (clef or a
// signing command without an account), or any beside an entry kept before the wallet was recorded,
// logs in instead. An API key's session serves beside any signing key: it
// names no wallet, and signing beside it is the common setup. unserved
// says why a wallet's session does not serve when the user could not
// guess it (the other cases are the key they gave): nil otherwise.
func (l Loaded) Serves(apiKey string, signing Signing) (serves bool, unserved *UnservedError) {
	switch {
	case apiKey != "":
		return apiKey == l.APIKey, nil
	case !signing.Given || l.Method != "wallet":
		return true, nil
	case !common.IsHexAddress(l.Wallet):
		return false, &UnservedError{Env: l.Env, Earlier: true}
	case signing.Wallet == (common.Address{}):
		return false, &UnservedError{Env: l.Env, Wallet: common.HexToAddress(l.Wallet)}
	}
	return common.HexToAddress(l.Wallet) == signing.Wallet, nil
}

// UnservedError says why a kept wallet session does not serve beside a
// signing key: it was kept by an earlier version, which did not record
// its wallet (Earlier: a new login records it), or the key's address is
// known only once it is opened (its source, clef or a signing command,
// names no account), so it cannot be told to be Wallet. Each face adds
// its own way to the step.
type UnservedError struct {
	Env     string
	Earlier bool
	Wallet  common.Address
}

func (e *UnservedError) Error() string {
	if e.Earlier {
		return "the wallet session kept for " + e.Env + " was made by an earlier version of svcwallet, which did not record its wallet, so it is not used beside a signing key"
	}
	return "the wallet session kept for " + e.Env + " is not used: the key source names no account, so it cannot be told to be its wallet, " + e.Wallet.Hex()
}

// Renews reports whether k, a login made while e had ended, is e's
// account's (the same account id and sub-account), to be kept in its
// place: another account's login (a key given for one script) kept there
// would be the account every later command acts as, unasked.
func (e Entry) Renews(k exchange.Kept) bool {
	return exchange.SameAccountID(k.AccountID, e.AccountID) && k.SubAccountID == e.SubAccount
}

// NoStoreError: the system has no credential store svcwallet can reach (a
// server, CI, a session without the Secret Service). Its text leaves the
// library's cause out ('exec: "dbus-launch": …' tells a user nothing to do).
type NoStoreError struct{ Cause error }

func (e *NoStoreError) Error() string {
	return "no credential store can be reached (no Keychain, Secret Service or Credential Manager answers in this session)"
}
func (e *NoStoreError) Unwrap() error { return e.Cause }

// ErrNone: nothing is kept for the environment.
var ErrNone = errors.New("no session is kept")

// OtherServiceError: what is kept under the name was made for another
// service than the name reaches now; it is not sent.
type OtherServiceError struct {
	Env        string
	Kept, Now  Bound
	KeptExpiry time.Time
}

func (e *OtherServiceError) Error() string {
	return fmt.Sprintf("the session kept for %s was made for %s, and %s now reaches %s", e.Env, e.Kept.Service, e.Env, e.Now.Service)
}

// ExpiredError: the kept session has ended.
type ExpiredError struct {
	Entry Entry
	Where Where
}

func (e *ExpiredError) Error() string {
	if e.Entry.Refused {
		return fmt.Sprintf("the session kept for %s was refused by the service at %s (it ended or was revoked)", e.Entry.Env, e.Entry.Expires.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("the session kept for %s ended at %s", e.Entry.Env, e.Entry.Expires.UTC().Format(time.RFC3339))
}

// UnreadableError: what is kept does not have a session's shape; it is
// not used.
type UnreadableError struct {
	Where  Where
	Reason error
}

func (e *UnreadableError) Error() string {
	return fmt.Sprintf("the kept session (%s) cannot be used: %v", e.Where, e.Reason)
}
func (e *UnreadableError) Unwrap() error { return e.Reason }

func sessionUser(env string) string { return "session:" + env }
func apiKeyUser(env string) string  { return "api-key:" + env }

// Available reports whether the credential store can be reached: nil, or
// a *NoStoreError.
func (s Store) Available() error {
	if _, err := keyring.Get(keyringService, "probe"); err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return &NoStoreError{Cause: err}
	}
	return nil
}

// Save keeps the session the client holds for e, in the credential store,
// or in the file when insecure, and the API key it logged in with (apiKey,
// "" for a wallet) in the credential store alone: never in the file. What
// is saved is checked as what is read back is, so nothing is written that
// could not be used.
func (s Store) Save(e config.Environment, k exchange.Kept, apiKey string, insecure bool) (where Where, err error) {
	err = s.locked(func() error {
		where, err = s.save(e, k, apiKey, insecure)
		return err
	})
	return where, err
}

// SaveRenewal keeps k, a session a running command, the console or plain
// mode renewed or logged in again, as Save does, only in the place of a
// session of its account kept for e (Entry.Renews), ended or not, decided
// under the file's lock: an auth login as another account made meanwhile
// in another process, written over, made every later command act as k's
// account unasked, and an auth logout made meanwhile was undone. A renewal
// by an API key (kept in the credential store alone) is kept only while
// that key is the one kept there: a login of the account by a rotated key
// or by its wallet made meanwhile stands. A login by no API key of the
// store's (a wallet, a key given for one command, once the kept session
// ended) keeps the API key kept beside it: only auth logout, or an auth
// login, forgets it. kept says whether it was.
func (s Store) SaveRenewal(e config.Environment, k exchange.Kept, apiKey string, insecure bool) (kept bool, err error) {
	err = s.locked(func() error {
		l, err := s.Load(e)
		entry := l.Entry
		if expired, ok := errors.AsType[*ExpiredError](err); ok {
			entry, err = expired.Entry, nil
		}
		if kept = err == nil && entry.Renews(k) && (insecure || apiKey == "" || s.apiKey(e) == apiKey); kept {
			if apiKey == "" && !insecure {
				apiKey = s.apiKey(e)
			}
			_, err = s.save(e, k, apiKey, insecure)
			return err
		}
		return nil
	})
	return kept, err
}

func (s Store) save(e config.Environment, k exchange.Kept, apiKey string, insecure bool) (Where, error) {
	entry := Entry{Env: e.Name, Bound: BoundOf(e), Cookie: k.Cookie, AccountID: k.AccountID, Expires: k.Expires.UTC(),
		Method: k.Method, Funding: k.FundingAccountAddress, SubAccount: k.SubAccountID, Wallet: k.Wallet}
	if err := s.check(entry, e); err != nil {
		return "", unkept(entry, err)
	}
	b, err := json.Marshal(entry)
	if err != nil {
		return "", err
	}
	if insecure {
		// One place only: a session kept in the file is not also in the
		// store, nor an API key anywhere.
		s.forgetKeyring(e.Name)
		return InFile, s.writeRecord(e.Name, record{Where: InFile, Session: b})
	}
	if err := keyring.Set(keyringService, sessionUser(e.Name), string(b)); err != nil {
		return "", &NoStoreError{Cause: err}
	}
	if apiKey != "" {
		kb, _ := json.Marshal(keptKey{Bound: entry.Bound, Key: apiKey})
		if err := keyring.Set(keyringService, apiKeyUser(e.Name), string(kb)); err != nil {
			return "", &NoStoreError{Cause: err}
		}
	} else {
		_ = keyring.Delete(keyringService, apiKeyUser(e.Name))
	}
	return InKeyring, s.writeRecord(e.Name, record{Where: InKeyring})
}

// keptKey is an API key as the credential store keeps it: with what it
// may be sent to.
type keptKey struct {
	Bound Bound  `json:"bound"`
	Key   string `json:"key"`
}

// Load finds the session kept for e: in the credential store, else in the
// file. ErrNone when there is none; *OtherServiceError when it was made for
// another service; *ExpiredError when it has ended; *UnreadableError when
// it is not a session's shape. The API key kept with it is returned only
// when it is bound to e's hosts as well.
func (s Store) Load(e config.Environment) (Loaded, error) {
	raw, where, err := s.read(e.Name)
	if err != nil {
		return Loaded{}, err
	}
	var entry Entry
	if err := exchange.Decode([]byte(raw), &entry); err != nil {
		return Loaded{}, &UnreadableError{Where: where, Reason: errors.New("not a session record")}
	}
	if !entry.Bound.boundTo(e) {
		if err := checkBound(entry.Bound); err != nil {
			return Loaded{}, &UnreadableError{Where: where, Reason: err}
		}
		return Loaded{}, &OtherServiceError{Env: e.Name, Kept: entry.Bound, Now: BoundOf(e), KeptExpiry: entry.Expires}
	}
	if err := s.check(entry, e); err != nil {
		var exp *ExpiredError
		if errors.As(err, &exp) {
			exp.Where = where
		}
		if u, ok := err.(*UnreadableError); ok {
			u.Where = where
		}
		return Loaded{}, err
	}
	l := Loaded{Entry: entry, Where: where}
	if where == InKeyring {
		l.APIKey = s.apiKey(e)
	}
	return l, nil
}

// Refused records that the service refused k, the session kept for e, at
// at: it is kept as ended then, so no command or console sends it again
// and auth status says so. A session kept since, another than k, stays.
func (s Store) Refused(e config.Environment, k exchange.Kept, at time.Time) error {
	return s.locked(func() error { return s.refused(e, k, at) })
}

func (s Store) refused(e config.Environment, k exchange.Kept, at time.Time) error {
	l, err := s.Load(e)
	if err != nil || l.Cookie != k.Cookie {
		return nil
	}
	l.Entry.Expires, l.Entry.Refused = at.UTC(), true
	b, err := json.Marshal(l.Entry)
	if err != nil {
		return err
	}
	if l.Where == InFile {
		return s.writeRecord(e.Name, record{Where: InFile, Session: b})
	}
	if err := keyring.Set(keyringService, sessionUser(e.Name), string(b)); err != nil {
		return &NoStoreError{Cause: err}
	}
	return nil
}

// apiKey is the API key kept for e, when it is bound to e and has a key's
// shape; "" otherwise.
func (s Store) apiKey(e config.Environment) string {
	raw, err := keyring.Get(keyringService, apiKeyUser(e.Name))
	if err != nil {
		return ""
	}
	var k keptKey
	if exchange.Decode([]byte(raw), &k) != nil || !k.Bound.boundTo(e) || exchange.CheckAPIKey(k.Key) != nil {
		return ""
	}
	return k.Key
}

// read is the session record kept for env, from where the file says it
// is: the credential store, reached only then, or the file itself.
func (s Store) read(env string) (string, Where, error) {
	records, err := s.readFile()
	if err != nil {
		return "", InFile, err
	}
	rec, ok := records[env]
	switch {
	case !ok:
		return "", "", ErrNone
	case rec.Where == InFile:
		// The session's cookie is in the file: one others could read may
		// have been read, and is not used.
		if err := osguard.CheckSecretFile(s.File); err != nil {
			return "", InFile, &UnreadableError{Where: InFile, Reason: fmt.Errorf("%w; then log in again: the session in it may have been read", err)}
		}
		return string(rec.Session), InFile, nil
	case rec.Where != InKeyring:
		return "", InFile, &UnreadableError{Where: InFile, Reason: errors.New("it names no place a session is kept")}
	}
	raw, err := keyring.Get(keyringService, sessionUser(env))
	switch {
	case errors.Is(err, keyring.ErrNotFound):
		return "", "", ErrNone
	case err != nil:
		return "", InKeyring, &NoStoreError{Cause: err}
	case len(raw) > maxRecord:
		return "", InKeyring, &UnreadableError{Where: InKeyring, Reason: errors.New("it is too long")}
	}
	return raw, InKeyring, nil
}

// Names lists the environments the file says have a session kept.
func (s Store) Names() ([]string, error) {
	records, err := s.readFile()
	names := make([]string, 0, len(records))
	for n := range records {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, err
}

// Forget removes what is kept for env, in both places. Nothing is sent:
// the service has no logout (SPEC.md §5). It reports whether anything
// was kept.
func (s Store) Forget(env string) (had bool, err error) {
	err = s.locked(func() error {
		had, err = s.forget(env)
		return err
	})
	return had, err
}

func (s Store) forget(env string) (bool, error) {
	records, err := s.readFile()
	if err != nil {
		// The file cannot say where env's session is: what the store keeps
		// for it is forgotten as asked, and a session kept in the store is
		// in no other place; else it may be in the file, said unreadable.
		if s.forgetKeyring(env) {
			return true, nil
		}
		return false, err
	}
	// The store is emptied for env whatever the file says: a file removed
	// by hand, or its record, left the session and API key there, used and
	// forgotten by nothing.
	_, had := records[env]
	inStore := s.forgetKeyring(env)
	return had || inStore, s.removeRecord(env)
}

// forgetKeyring removes env's session and API key from the credential
// store, reporting whether it held either.
func (s Store) forgetKeyring(env string) (had bool) {
	for _, user := range []string{sessionUser(env), apiKeyUser(env)} {
		had = keyring.Delete(keyringService, user) == nil || had
	}
	return had
}
