// Package sandbox is the embedded exchange: one http.Handler that serves the
// three hosts of SPEC.md (/auth/..., /api/v1/..., /time) and enforces every
// rule the spec states, with the choices of DESIGN.md §3–§4 where it is
// silent. It keeps all state in memory and runs on a clock the caller may
// fake, so tests drive expirations and settlement without sleeping. It reads
// requests with its own code (addresses, amounts, fee rates, permissions),
// sharing only the wire types, error codes and EIP-712 recovery with the
// client, so an end-to-end test can catch a client check that is wrong.
package sandbox

import (
	"cmp"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// Options configures an Exchange. Zero values take the defaults noted.
type Options struct {
	ChainID    uint64 // EIP-712 chain id; default 327 (staging, D3)
	DomainName string // EIP-712 domain name; default signer.DefaultDomainName
	// CookieName and AccountIDHeader name the session cookie and the
	// account-id header, as a real deployment does; default the spec's.
	CookieName      string
	AccountIDHeader string
	QuoteTTL        time.Duration    // quote lifetime; default 60s
	Settle          time.Duration    // SUBMITTED→SENDING at half, terminal at Settle; default 6s
	SessionTTL      time.Duration    // session cookie lifetime; default 30 days, the service's
	Now             func() time.Time // sandbox clock; default time.Now
	Logger          *slog.Logger     // one line per request, never a secret; nil = discard
	ExtraChains     int              // synthetic ready chains added to the demo account's deposit list
	RateLimit       int              // requests a second per account, beyond which 429 code 1006; 0 = no limit
	MaxSessions     int              // live sessions per account, the oldest ended beyond; default DefaultMaxSessions
	MaxQuotes       int              // unexecuted quotes per account, 429 code 1006 beyond; default DefaultMaxQuotes
	ReadTimeout     time.Duration    // Start's limit on reading a whole request; default DefaultReadTimeout
	// Seeding serves PathSeed, which records withdrawals without a
	// signature or a limit: for measuring followers at scale, never on a
	// sandbox served to the network.
	Seeding bool
}

// Defaults of Options.
const (
	DefaultChainID    = 327
	DefaultQuoteTTL   = 60 * time.Second
	DefaultSettle     = 6 * time.Second
	DefaultSessionTTL = 30 * 24 * time.Hour
)

// Exchange is the sandbox exchange. It is safe for concurrent use: one mutex
// guards all state, held only while a request reads or changes it (never
// while writing a response or waiting on an injected fault).
type Exchange struct {
	domain                    signer.Domain
	cookieName, accountHeader string // the deployment's names (Options)
	quoteTTL                  time.Duration
	settle                    time.Duration
	sessionTTL                time.Duration
	now                       func() time.Time
	log                       *slog.Logger
	routes                    map[string]route
	rateLimit                 int
	maxSessions, maxQuotes    int
	rates                     map[string]rateWindow // per account; guarded by mu

	mu            sync.Mutex
	accounts      map[string]*account         // by account id
	accountList   []*account                  // the same, to visit each without a map walk
	byFunding     map[common.Address]*account // by funding address (builder authorization)
	byOwner       map[common.Address]*account // by main signer (wallet login)
	keys          map[string]keyGrant         // API key → what it opens
	sessions      map[string]session          // cookie value → session
	nonces        map[nonceKey]int64          // used (kind, signer, nonce) → expiry, unix ns
	nonceExpiry   timeline[nonceKey]          // the same by expiry, for pruning
	quotes        map[string]*quote           // quotes and withdrawals by quote id
	pending       timeline[*quote]            // executed, not yet terminal, by settlement time
	inFlight      map[string]decimal.Decimal  // by chain: what its pending payouts hold of the bridge's liquidity
	providerDown  bool                        // contract addresses unresolvable
	withdrawFault func(phase string) Fault    // nil = no faults
}

type route struct {
	method  string
	handler func(http.ResponseWriter, *http.Request) *apiError
}

// New builds an Exchange seeded with the demo data of DESIGN.md §4.
func New(opts Options) *Exchange {
	e := &Exchange{
		domain:      signer.Domain{Name: opts.DomainName, ChainID: opts.ChainID},
		quoteTTL:    opts.QuoteTTL,
		settle:      opts.Settle,
		sessionTTL:  opts.SessionTTL,
		now:         opts.Now,
		log:         opts.Logger,
		accounts:    map[string]*account{},
		byFunding:   map[common.Address]*account{},
		byOwner:     map[common.Address]*account{},
		keys:        map[string]keyGrant{},
		sessions:    map[string]session{},
		nonces:      map[nonceKey]int64{},
		quotes:      map[string]*quote{},
		inFlight:    map[string]decimal.Decimal{},
		rateLimit:   opts.RateLimit,
		maxSessions: cmp.Or(max(opts.MaxSessions, 0), DefaultMaxSessions),
		maxQuotes:   cmp.Or(max(opts.MaxQuotes, 0), DefaultMaxQuotes),
		rates:       map[string]rateWindow{},
	}
	if e.domain.Name == "" {
		e.domain.Name = signer.DefaultDomainName
	}
	e.cookieName, e.accountHeader = cmp.Or(opts.CookieName, config.SessionCookie), cmp.Or(opts.AccountIDHeader, config.HeaderAccountID)
	if e.domain.ChainID == 0 {
		e.domain.ChainID = DefaultChainID
	}
	if e.quoteTTL <= 0 {
		e.quoteTTL = DefaultQuoteTTL
	}
	if e.settle <= 0 {
		e.settle = DefaultSettle
	}
	if e.sessionTTL <= 0 {
		e.sessionTTL = DefaultSessionTTL
	}
	if e.now == nil {
		e.now = time.Now
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	e.routes = map[string]route{
		exchange.PathAPIKeyLogin:      {http.MethodPost, e.handleAPIKeyLogin},
		exchange.PathWalletLogin:      {http.MethodPost, e.handleWalletLogin},
		exchange.PathBuilderAuthorize: {http.MethodPost, e.handleBuilderAuthorize},
		exchange.PathTime:             {http.MethodGet, e.handleTime},
		exchange.PathDepositAddresses: {http.MethodGet, e.handleDepositAddresses},
		exchange.PathGenerateAddress:  {http.MethodPost, e.handleGenerateAddress},
		exchange.PathWithdrawalInfo:   {http.MethodGet, e.handleWithdrawalInfo},
		exchange.PathWithdrawalQuote:  {http.MethodPost, e.handleQuote},
		exchange.PathWithdraw:         {http.MethodPost, e.handleWithdraw},
		exchange.PathWithdrawalStatus: {http.MethodGet, e.handleStatus},
	}
	if opts.Seeding {
		e.routes[PathSeed] = route{http.MethodPost, e.handleSeed}
	}
	e.seed(opts.ExtraChains)
	return e
}

// ServeHTTP routes a request, answers errors as D7 bodies and logs one line.
func (e *Exchange) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	logged := e.log.Enabled(r.Context(), slog.LevelInfo)
	var start time.Time
	if logged {
		start = time.Now()
	}
	sw := &statusWriter{ResponseWriter: w}
	var err *apiError
	rt, ok := e.routes[r.URL.Path]
	wait, limited := e.overRate(r)
	switch {
	case limited:
		err = rejectRate(sw, wait)
	case !ok:
		err = fail(exchange.CodeNoSuchEndpoint, "no endpoint at this path")
	case r.Method != rt.method:
		sw.Header().Set("Allow", rt.method)
		err = failf(exchange.CodeMethodNotAllowed, "use %s for this endpoint", rt.method)
	default:
		err = e.serve(rt.handler, sw, r)
	}
	code := 0
	if err != nil {
		writeError(sw, err)
		code = int(err.code)
	}
	if logged {
		// Handled directly, with no caller (pc 0): looking the caller up
		// costs a third of a log line, and the line names no source.
		end := time.Now()
		line := slog.NewRecord(end, slog.LevelInfo, "request", 0)
		line.AddAttrs(slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int("code", code), slog.Duration("duration", end.Sub(start)))
		if r.URL.Path == exchange.PathWithdrawalStatus {
			// Which id was asked, so a follower's asks can be counted from
			// the log: a quote id is no secret; slog quotes what is odd.
			id := queryValue(r.URL.RawQuery, "quote_id")
			line.AddAttrs(slog.String("quote_id", id[:min(len(id), 80)]))
		}
		_ = e.log.Handler().Handle(r.Context(), line)
	}
}

// lock takes the state lock and brings every withdrawal up to the sandbox
// clock first, so a refund lands when its time passes, whatever is asked,
// and drops what expired. A panic meanwhile releases it, as the caller's
// deferred unlock, not yet set, would.
func (e *Exchange) lock() time.Time {
	e.mu.Lock()
	settled := false
	defer func() {
		if !settled {
			e.mu.Unlock()
		}
	}()
	now := e.now()
	e.settleDue(now)
	e.prune(now)
	settled = true
	return now
}

// SetBridgeEnabled turns the bridge feature on or off for an account; off
// refuses the deposit endpoints and withdrawal info, quote and withdraw with
// 403 code 9000. Unknown accounts are ignored.
func (e *Exchange) SetBridgeEnabled(accountID string, on bool) {
	e.lock()
	defer e.mu.Unlock()
	if a := e.accounts[accountID]; a != nil {
		a.bridgeOff = !on
	}
}

// SetProviderReachable simulates the bridge provider being unreachable:
// token contract addresses are resolved from it, so they come back empty.
func (e *Exchange) SetProviderReachable(on bool) {
	e.lock()
	defer e.mu.Unlock()
	e.providerDown = !on
}

// RemoveFromAddressBook deletes a destination from an account's address book.
func (e *Exchange) RemoveFromAddressBook(accountID, addr string) {
	e.lock()
	defer e.mu.Unlock()
	if a := e.accounts[accountID]; a != nil {
		delete(a.addressBook, bookKey(addr))
	}
}

// Balance is an account's USDT balance on the sandbox clock (zero if unknown).
func (e *Exchange) Balance(accountID string) decimal.Decimal {
	e.lock()
	defer e.mu.Unlock()
	if a := e.accounts[accountID]; a != nil {
		return a.balance
	}
	return decimal.Decimal{}
}
