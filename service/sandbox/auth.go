package sandbox

import (
	"crypto/rand"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// loginWindow is how far ahead a wallet-login signature may expire (SPEC.md §4.2).
const loginWindow = 5 * time.Minute

// session is what a svc cookie stands for.
type session struct {
	accountID string
	expires   time.Time
}

func (e *Exchange) handleTime(w http.ResponseWriter, r *http.Request) *apiError {
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		return reply{body: exchange.ServerTime{ServerTime: now.UnixMilli()}}, nil
	})
}

// handleAPIKeyLogin is SPEC.md §4.1. A "Cookie: rm=true" sent along is ignored.
func (e *Exchange) handleAPIKeyLogin(w http.ResponseWriter, r *http.Request) *apiError {
	var req struct {
		APIKey *string `json:"api_key"`
	}
	if err := readBody(r).decode(&req); err != nil {
		return err
	}
	key, err := need(req.APIKey, "api_key")
	if err != nil {
		return err
	}
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		g, ok := e.keys[key]
		if !ok {
			return reply{}, fail(exchange.CodeNotAuthenticated, "unknown API key")
		}
		return e.startSession(g, now), nil
	})
}

// handleWalletLogin is SPEC.md §4.2: the owner of an account logs in with an
// EIP-712 WalletLogin signature valid for at most 5 minutes, once per nonce.
// As the published service does, its four refusals (expired, invalid
// signature, unregistered wallet, replayed nonce) are 401 with the reason
// first in the message, and a malformed signature is 400 (loginRefusal).
func (e *Exchange) handleWalletLogin(w http.ResponseWriter, r *http.Request) *apiError {
	var req struct {
		Address   *string  `json:"address"`
		Signature *wireSig `json:"signature"`
	}
	if err := readBody(r).decode(&req); err != nil {
		return err
	}
	addrText, err := need(req.Address, "address")
	if err != nil {
		return err
	}
	addr, err := parseAddress(addrText, "address")
	if err != nil {
		return err
	}
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		// chain_id may be omitted at wallet login, as the published service
		// allows: omitted or 0 means this environment's.
		s, err := e.check(req.Signature, false, now, loginWindow)
		if err != nil {
			return reply{}, loginRefusal(err)
		}
		if s.signer != addr {
			return reply{}, fail(exchange.CodeNotAuthenticated, "invalid signature: signature.signer must be the address logging in")
		}
		msg := signer.WalletLogin{Signer: addr, Nonce: s.nonce, Expiration: s.expiration}
		if err := e.verify(s, msg, "the login message"); err != nil {
			return reply{}, loginRefusal(err)
		}
		a := e.byOwner[addr]
		if a == nil {
			return reply{}, fail(exchange.CodeNotAuthenticated, "wallet not registered: the address is not the main signing wallet of any account")
		}
		k := nonceKey{kindLogin, addr, s.nonce}
		if e.nonceUsed(k, now) {
			return reply{}, fail(exchange.CodeNotAuthenticated, "signature already used: this login's nonce was seen within its lifetime; sign again with a new nonce")
		}
		e.useNonce(k, s.expiration)
		return e.startSession(keyGrant{accountID: a.id}, now), nil
	})
}

// loginRefusal answers a signature check's rejection the way the published
// wallet login does: an expired or unverifiable signature is 401 (1000,
// "signature expired" or "invalid signature"), a malformed v, r or s is 400
// (1003); the rest (window, chain id, body) keep their code.
func loginRefusal(err *apiError) *apiError {
	switch err.code {
	case exchange.CodeSignatureExpired:
		return fail(exchange.CodeNotAuthenticated, "signature expired: the login signature's expiration has passed; sign again")
	case exchange.CodeSignatureMismatch, exchange.CodeHighS:
		return fail(exchange.CodeNotAuthenticated, "invalid signature: "+err.msg)
	case exchange.CodeBadV, exchange.CodeBadRS:
		return malformed("%s", err.msg)
	}
	return err
}

// startSession creates a session for a grant and the login answer that
// carries it: the svc cookie, the account id header and the LoginResult.
// A builder's key names the builder in location (SPEC.md gives it no meaning).
func (e *Exchange) startSession(g keyGrant, now time.Time) reply {
	token := rand.Text()
	expires := now.Add(e.sessionTTL)
	a := e.accounts[g.accountID]
	e.addSession(a, token, session{accountID: g.accountID, expires: expires})
	res := exchange.LoginResult{Status: "success", FundingAccountAddress: a.funding.Hex(), SubAccountID: g.subAccountID}
	if g.builder != (common.Address{}) {
		res.Location = "builder:" + g.builder.Hex()
	}
	return reply{
		body:      res,
		cookie:    &http.Cookie{Name: e.cookieName, Value: token, Path: "/", HttpOnly: true, Expires: expires},
		accountID: a.id,
	}
}

// sessionAccount resolves the session cookie plus the account-id header
// (SPEC.md §5: svc and X-Service-Account-Id, unless Options name them).
// missing is the message when there is no cookie at all.
func (e *Exchange) sessionAccount(r *http.Request, now time.Time, missing string) (*account, *apiError) {
	c, err := r.Cookie(e.cookieName)
	if err != nil {
		return nil, fail(exchange.CodeNotAuthenticated, missing)
	}
	s, ok := e.sessions[c.Value]
	if !ok || !now.Before(s.expires) {
		return nil, fail(exchange.CodeNotAuthenticated, "session is unknown or expired; log in again")
	}
	switch id := r.Header.Get(e.accountHeader); {
	case id == "":
		return nil, fail(exchange.CodeNotAuthenticated, "send the "+e.accountHeader+" header from the login response with the session cookie")
	case id != s.accountID:
		return nil, fail(exchange.CodeForbidden, e.accountHeader+" does not match the session's account")
	}
	return e.accounts[s.accountID], nil
}

// depositAccount authenticates the deposit endpoints: X-API-Key alone, or
// the session cookie with X-Service-Account-Id. The account needs the bridge
// feature and a chain account address.
func (e *Exchange) depositAccount(r *http.Request, now time.Time) (*account, *apiError) {
	var a *account
	if key := r.Header.Get(headerAPIKey); key != "" {
		g, ok := e.keys[key]
		if !ok {
			return nil, fail(exchange.CodeNotAuthenticated, "unknown API key")
		}
		a = e.accounts[g.accountID]
	} else {
		var err *apiError
		a, err = e.sessionAccount(r, now, "send X-API-Key, or the "+e.cookieName+" session cookie with "+e.accountHeader)
		if err != nil {
			return nil, err
		}
	}
	switch {
	case a.bridgeOff:
		return nil, fail(exchange.CodeBridgeDisabled, "the bridge feature is disabled for this account")
	case a.chains == nil:
		return nil, fail(exchange.CodeNoChainAccount, "this account has no chain account address; finish chain account setup first")
	}
	return a, nil
}

// bridgeAccount authenticates the bridge endpoints: a session only, because
// execution authenticates the transfer with it (SPEC.md §5). needBridge
// refuses accounts whose bridge feature is off; the status of an existing
// withdrawal stays readable.
func (e *Exchange) bridgeAccount(r *http.Request, now time.Time, needBridge bool) (*account, *apiError) {
	missing := "log in first: the svc session cookie is missing"
	if r.Header.Get(headerAPIKey) != "" {
		missing = "bridge endpoints need a session: log in and send the svc cookie; X-API-Key alone is not enough"
	}
	a, err := e.sessionAccount(r, now, missing)
	if err != nil {
		return nil, err
	}
	if needBridge && a.bridgeOff {
		return nil, fail(exchange.CodeBridgeDisabled, "the bridge feature is disabled for this account")
	}
	return a, nil
}
