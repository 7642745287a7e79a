package exchange

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/svcwallet/svcwallet/internal/startenv"
	"github.com/svcwallet/svcwallet/signer"
)

// reloginMargin: a session with less than this left is renewed before use (D6).
const reloginMargin = 5 * time.Second

// MaxCookieLife caps a session cookie's Max-Age or Expires, as browsers cap
// a cookie's (RFC 6265bis): a Max-Age of centuries overflowed a Duration.
const MaxCookieLife = 400 * 24 * time.Hour

// MaxCookieValue bounds a session cookie's value, as browsers bound a
// cookie (RFC 6265 §6.1): a longer one could not be kept, and is looked
// for through every answer as a credential said back.
const MaxCookieValue = 4096

// walletLoginWindow is how far past the server's time a wallet login expires
// (D9: 4 minutes, inside the service's 5-minute limit).
const walletLoginWindow = 4 * time.Minute

// Credential logs in and can log in again when the session lapses.
type Credential interface {
	login(ctx context.Context, c *Client) (LoginResult, http.Header, error)
	// Method names the credential kind for display ("API key", "wallet").
	Method() string
	// awaiting names the person a login waits for (signer.Awaiting), or ""
	// when it needs nobody. Only a session whose login needs nobody is
	// renewed by the client on its own: a key in clef, behind a signing
	// command or on a device would ask a person, out of the blue and under
	// another call's deadline, to approve a login they never started.
	awaiting() string
}

// APIKeyEnvVar holds an API key for the commands and pre-fills the console's
// login form; it is never printed.
const APIKeyEnvVar = startenv.APIKeyVar

// GivenAPIKey is the API key in $SVCWALLET_API_KEY as every face reads
// it: trimmed as APIKey trims it, so a session kept from it serves it
// again; given when the variable is set to anything, blank too (a key
// given, which its login then refuses).
func GivenAPIKey(getenv func(string) string) (key string, given bool) {
	v := getenv(APIKeyEnvVar)
	return strings.TrimSpace(v), v != ""
}

// APIKey is the API-key credential (SPEC.md §4.1) of key as typed, pasted
// or set: the spaces and line breaks around it (a copy's, a file's CRLF)
// are not the key's, so every face logs in with the same key.
func APIKey(key string) Credential { return apiKeyCred{key: strings.TrimSpace(key)} }

type apiKeyCred struct{ key string }

func (apiKeyCred) Method() string { return "API key" }

func (apiKeyCred) awaiting() string { return "" }

func (a apiKeyCred) login(ctx context.Context, c *Client) (LoginResult, http.Header, error) {
	var res LoginResult
	var hdr http.Header
	err := c.do(ctx, call{method: http.MethodPost, base: c.env.AuthURL, path: PathAPIKeyLogin,
		body: APIKeyLoginRequest{APIKey: a.key}, respHeader: &hdr, cookieRM: true, secret: a.key}, &res)
	return res, hdr, err
}

// Wallet is the EIP-712 wallet-login credential (SPEC.md §4.2): the
// expiration comes from the earlier of the server's /time and the local clock,
// and clocks more than MaxClockSkew apart refuse the login (SigningNow).
func Wallet(key signer.Key) Credential { return walletCred{key: key} }

type walletCred struct{ key signer.Key }

func (walletCred) Method() string { return "wallet" }

func (w walletCred) awaiting() string { return signer.Awaiting(w.key) }

func (w walletCred) login(ctx context.Context, c *Client) (LoginResult, http.Header, error) {
	now, err := c.SigningNow(ctx)
	if err != nil {
		return LoginResult{}, nil, err
	}
	msg := signer.WalletLogin{
		Signer:     w.key.Address(),
		Nonce:      signer.NewNonce(),
		Expiration: now.Add(walletLoginWindow).UnixNano(),
	}
	sig, err := signer.Sign(ctx, w.key, c.env.Domain(), msg)
	if err != nil {
		return LoginResult{}, nil, SignFailure(err)
	}
	var res LoginResult
	var hdr http.Header
	err = c.do(ctx, call{method: http.MethodPost, base: c.env.AuthURL, path: PathWalletLogin,
		body: WalletLoginRequest{Address: msg.Signer.Hex(), Signature: NewSignature(sig)}, respHeader: &hdr}, &res)
	return res, hdr, walletLoginRefusal(err)
}

// Session is what a login gave: shown in the top bar and used on every call.
type Session struct {
	LoginResult
	AccountID string    // X-Service-Account-Id (D6)
	Expires   time.Time // the cookie's Expires; zero when the cookie had none
	Method    string    // how the user logged in
	// Wallet is the address a wallet login signed with; "" for an API key.
	Wallet string
}

// sessionStore guards the cookie, account id and credential.
type sessionStore struct {
	mu     sync.Mutex
	cookie string
	info   Session
	cred   Credential
	kept   bool // adopted from a store, not logged in by this client
	// stored: the session is the stored one or its credential's renewal
	// of it (Adopt); a Login by any credential ends that.
	stored bool
	// The environment's names for the cookie and the account-id header.
	cookieName, accountHeader string
}

// apply sends req with k, the session it was decided to go with
// (doAuthed): one that replaced it meanwhile may be another account's.
func (s *sessionStore) apply(req *http.Request, k Kept) {
	if k.Cookie == "" {
		return
	}
	req.AddCookie(&http.Cookie{Name: s.cookieName, Value: k.Cookie})
	if k.AccountID != "" {
		req.Header.Set(s.accountHeader, k.AccountID)
	}
}

// renewal is the session as it is now and the credential that renews it
// (nil when none does), read together: a renewal replaces that session
// alone (Client.renewed).
func (s *sessionStore) renewal() (Kept, Credential) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Kept{Session: s.info, Cookie: s.cookie}, s.cred
}

// Login logs in with cred and keeps the session for later calls.
func (c *Client) Login(ctx context.Context, cred Credential) (Session, error) {
	return c.login(ctx, cred, nil)
}

// login logs in with cred; renewing, when not nil, is the session it
// renews (renew), which it replaces only while that is still the client's.
func (c *Client) login(ctx context.Context, cred Credential, renewing *Kept) (Session, error) {
	res, hdr, err := cred.login(ctx, c)
	if err != nil {
		return Session{}, err
	}
	cookie := sessionCookie(hdr, c.env.Cookie())
	if cookie == nil {
		return Session{}, &NoSessionCookieError{Cookie: c.env.Cookie()}
	}
	if len(cookie.Value) > MaxCookieValue {
		return Session{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: NewShapeError("session cookie", "is longer than %d bytes", MaxCookieValue)}
	}
	if hdr.Get(c.env.AccountHeader()) == "" {
		return Session{}, &NoAccountHeaderError{Header: c.env.AccountHeader()}
	}
	info := Session{LoginResult: res, AccountID: hdr.Get(c.env.AccountHeader()), Method: cred.Method()}
	if w, ok := cred.(walletCred); ok {
		info.Wallet = w.key.Address().Hex()
	}
	// The account id comes in a header, past the body's checks: it is shown
	// on screen and journaled, so it has an id's shape or the login fails.
	if err := CheckID("account id", info.AccountID, false); err != nil {
		return Session{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: err}
	}
	// The header and the body are said back against the cookie just set too.
	inFlight := []string{cookie.Value}
	if k, ok := cred.(apiKeyCred); ok {
		inFlight = append(inFlight, k.key)
	}
	if err := refuseSaidBack(info, c.prepared.of(c.ownSecrets(inFlight...))); err != nil {
		return Session{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: err}
	}
	// Max-Age wins over Expires when both are set (RFC 6265 §5.3), and being
	// relative it is immune to a skew between the service's clock and ours.
	if cookie.MaxAge > 0 {
		info.Expires = c.now().Add(time.Duration(min(int64(cookie.MaxAge), int64(MaxCookieLife/time.Second))) * time.Second)
	} else if !cookie.Expires.IsZero() {
		info.Expires = cookie.Expires
		if far := c.now().Add(MaxCookieLife); info.Expires.After(far) {
			info.Expires = far
		}
	}
	c.session.mu.Lock()
	if renewing != nil {
		wasKept := c.session.kept
		if replaced, err := c.renewed(*renewing, info); err != nil {
			c.session.mu.Unlock()
			c.log.Info("the renewed login answered another account; logged out", "account_id", info.AccountID, "was", renewing.AccountID)
			// A store stops offering it too: kept, every later run would
			// renew it, end it again and keep it still.
			if c.onRefused != nil {
				c.onRefused(*renewing)
			}
			return Session{}, &SessionEndedError{Env: c.env.Name, Kept: wasKept, Cause: err}
		} else if replaced {
			// The login made meanwhile stays; what goes on on it is
			// decided by the caller (Client.again).
			c.session.mu.Unlock()
			return info, nil
		}
	}
	stored := renewing != nil && c.session.stored
	c.session.cookie, c.session.info, c.session.cred, c.session.kept, c.session.stored = cookie.Value, info, cred, false, stored
	c.session.mu.Unlock()
	c.log.Info("logged in", "method", cred.Method(), "account_id", info.AccountID)
	if c.onLogin != nil {
		c.onLogin(Kept{Session: info, Cookie: cookie.Value})
	}
	if stored && c.onRenewed != nil {
		c.onRenewed(Kept{Session: info, Cookie: cookie.Value})
	}
	return info, nil
}

// Kept is a session as a store keeps it between runs: what the login gave
// and its cookie, a secret sent to this environment alone.
type Kept struct {
	Session
	Cookie string
}

// Kept is the session to keep between runs, and false when logged out.
func (c *Client) Kept() (Kept, bool) {
	c.session.mu.Lock()
	defer c.session.mu.Unlock()
	return Kept{Session: c.session.info, Cookie: c.session.cookie}, c.session.cookie != ""
}

// Adopt makes a kept session the client's, as if it had just logged in:
// cred logs in again when it lapses, or nil, when the user must (a wallet
// waits for a person). The caller checked what it read back (its shape,
// its service, its expiry): the client sends it as it is. cred's renewals
// go to Options.OnRenewed, a Login's never.
func (c *Client) Adopt(k Kept, cred Credential) {
	c.session.mu.Lock()
	c.session.cookie, c.session.info, c.session.cred, c.session.kept, c.session.stored = k.Cookie, k.Session, cred, true, true
	c.session.mu.Unlock()
	c.log.Info("using a kept session", "method", k.Method, "account_id", k.AccountID)
}

// Session returns the current session, and false when logged out.
func (c *Client) Session() (Session, bool) {
	c.session.mu.Lock()
	defer c.session.mu.Unlock()
	return c.session.info, c.session.cookie != ""
}

// Logout forgets the session and the credential; the service defines no
// logout endpoint (SPEC.md §5), so nothing is sent.
func (c *Client) Logout() {
	c.session.mu.Lock()
	c.session.cookie, c.session.info, c.session.cred, c.session.kept, c.session.stored = "", Session{}, nil, false, false
	c.session.mu.Unlock()
}

// ensureSession renews a session that is about to lapse (D6).
func (c *Client) ensureSession(ctx context.Context) error {
	was, cred := c.session.renewal()
	if was.Cookie == "" {
		return &APIError{Status: http.StatusUnauthorized, Code: CodeNotAuthenticated, Message: "not logged in"}
	}
	if !was.Expires.IsZero() && was.Expires.Sub(c.now()) < reloginMargin && cred != nil {
		return c.relogin(ctx, cred, was, nil)
	}
	return nil
}

// relogin logs in again with cred after the session lapsed (ended: the
// service's 401, nil when the client's clock said so), unless the login
// waits for a person: then the session has ended and the user logs in.
func (c *Client) relogin(ctx context.Context, cred Credential, was Kept, ended error) error {
	if who := cred.awaiting(); who != "" {
		if ended == nil {
			ended = &APIError{Status: http.StatusUnauthorized, Code: CodeNotAuthenticated, Message: "session expired"}
		}
		return &SessionEndedError{Env: c.env.Name, Awaiting: who, Cause: ended}
	}
	c.log.Info("session lapsed; logging in again", "method", cred.Method())
	if _, err := c.login(ctx, cred, &was); err != nil {
		if _, ok := errors.AsType[*SessionEndedError](err); ok {
			return err
		}
		return fmt.Errorf("session expired and logging in again failed: %w", err)
	}
	return nil
}

// renewed decides, holding the session's lock, what a renewal of was that
// answered now does: replaced when a login landed meanwhile (was is no
// longer the client's session), which stays and the renewal is dropped;
// an *OtherAccountError, the session forgotten, when it answered another
// account; else the renewal takes was's place.
func (c *Client) renewed(was Kept, now Session) (replaced bool, err error) {
	if c.session.cookie != was.Cookie {
		return true, nil
	}
	if !sameAccount(was.Session, now) {
		// What was asked and signed on the lapsed session is its account's:
		// nothing more is sent as another's, nor on the lapsed one.
		c.session.cookie, c.session.info, c.session.cred, c.session.kept, c.session.stored = "", Session{}, nil, false, false
		return false, &OtherAccountError{Was: was.Session, Now: now}
	}
	return false, nil
}

// again is the session to ask on, and its credential, once was may have
// been renewed (or a login landed meanwhile): only one of was's account.
// Another's is kept, and nothing is asked on it (*OtherAccountError,
// Meanwhile).
func (c *Client) again(was Kept) (Kept, Credential, error) {
	now, cred := c.session.renewal()
	switch {
	case was.Cookie == "" || now.Cookie == "":
		return now, nil, &APIError{Status: http.StatusUnauthorized, Code: CodeNotAuthenticated, Message: "logged out while the session was renewed"}
	case !sameAccount(was.Session, now.Session):
		return now, nil, &OtherAccountError{Was: was.Session, Now: now.Session, Meanwhile: true}
	}
	return now, cred, nil
}

// sameAccount: a renewed login answered the account the session it renews
// was: its account id, sub-account and funding account (unless unknown: a
// session kept by an earlier version may not name it), compared as
// addresses: a kept one may be written without its 0x.
func sameAccount(was, now Session) bool {
	return SameAccountID(was.AccountID, now.AccountID) && was.SubAccountID == now.SubAccountID &&
		(was.FundingAccountAddress == "" || common.HexToAddress(was.FundingAccountAddress) == common.HexToAddress(now.FundingAccountAddress))
}

// OtherAccountError: a renewal of the session Was logged in as another
// account, Now. It ends the session (SessionEndedError): the client is
// logged out, and nothing more is sent as either. Meanwhile, it is a login
// made while a request of Was was under way (renewed, or a withdraw
// retried): that session stays, and what was asked on Was is not asked on it.
type OtherAccountError struct {
	Was, Now  Session
	Meanwhile bool
}

func (e *OtherAccountError) Error() string {
	was, now := e.Was.AccountID, e.Now.AccountID
	if was == now {
		was, now = e.Was.FundingAccountAddress, e.Now.FundingAccountAddress
	}
	if strings.EqualFold(was, now) {
		was, now = "sub-account "+cmp.Or(e.Was.SubAccountID, "none"), "sub-account "+cmp.Or(e.Now.SubAccountID, "none")
	}
	if e.Meanwhile {
		return "A login as another account (" + now + ") was made while a request of " + was +
			" was under way (its session renewed, a withdraw retried, or a withdrawal taken up), so what was asked as " + was + " is not asked as " + now + "; ask it again as the account you mean"
	}
	return "the service answered the renewed login as another account (" + now + ", not " + was + ")"
}

// SessionEndedError: the session ended (the service refused it, or the
// clock said so) and the client cannot renew it on its own: it was kept
// without a credential, or its login waits for a person. The client has
// forgotten it; the faces take the user to a login.
type SessionEndedError struct {
	Env string
	// Awaiting names the person the login waits for, or "".
	Awaiting string
	// Kept: the session was one kept between runs (Adopt).
	Kept  bool
	Cause error
}

func (e *SessionEndedError) Error() string {
	if other, ok := errors.AsType[*OtherAccountError](e.Cause); ok {
		return "Session ended: " + other.Error() + ", so svcwallet logged out and sent nothing more as either; log in again"
	}
	if e.Awaiting != "" {
		return "Session ended: log in again (the login waits for " + e.Awaiting + ", so svcwallet does not renew it on its own)"
	}
	return "The service refused the session (it ended or was revoked): log in again"
}

func (e *SessionEndedError) Unwrap() error { return e.Cause }

// refused forgets a session the service refused with no credential to
// renew it, tells onRefused (a store stops offering a kept one), and says
// it ended. sent is the cookie the refused request carried: a login that
// landed meanwhile is not the one refused, and is kept (replaced).
func (c *Client) refused(cause error, sent string) (err error, replaced bool) {
	c.session.mu.Lock()
	if c.session.cookie != sent {
		c.session.mu.Unlock()
		return nil, true
	}
	k, kept := Kept{Session: c.session.info, Cookie: c.session.cookie}, c.session.kept
	c.session.cookie, c.session.info, c.session.cred, c.session.kept, c.session.stored = "", Session{}, nil, false, false
	c.session.mu.Unlock()
	if k.Cookie != "" && c.onRefused != nil {
		c.onRefused(k)
	}
	return &SessionEndedError{Env: c.env.Name, Kept: kept, Cause: cause}, false
}

func sessionCookie(h http.Header, name string) *http.Cookie {
	for _, line := range h.Values("Set-Cookie") {
		ck, err := http.ParseSetCookie(line)
		if err == nil && ck.Name == name && ck.Value != "" {
			return ck
		}
	}
	return nil
}

// ErrOwnSecret is why an id a user gave is refused when it holds a
// credential of this client's (Client.OwnSecret): sent as a quote id it
// would leave in a URL, and a not-found would say it back.
var ErrOwnSecret = errors.New("it is this session's API key or session cookie: it is never sent as a quote id nor shown; History lists your withdrawals' quote ids")

// minHeldSecret is the shortest credential looked for inside a longer id;
// a shorter one is refused only as the whole id.
const minHeldSecret = 8

// OwnSecret reports whether s is, or holds, a credential this client
// sends: its API key (Options.APIKey, or the one it logged in with) or
// its session cookie.
func (c *Client) OwnSecret(s string) bool {
	return holdsAny(s, c.prepared.of(c.ownSecrets()))
}
