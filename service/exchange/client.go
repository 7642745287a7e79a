package exchange

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
)

// DefaultTimeout bounds one HTTP attempt.
const DefaultTimeout = 15 * time.Second

// CallTimeout bounds one call a face makes of the client: its attempts and
// a re-login included, each attempt within DefaultTimeout.
const CallTimeout = 30 * time.Second

// maxResponseBody bounds what is read of any answer.
const maxResponseBody = 1 << 20

// Options tune a Client; the zero value is usable.
type Options struct {
	HTTPClient *http.Client     // default: one with DefaultTimeout
	Now        func() time.Time // default time.Now; tests pass a fake clock
	Logger     *slog.Logger     // request log without secrets; nil discards
	Retry      RetryPolicy      // withdraw retries (D10) and Patiently's; zero value = DefaultRetry
	// APIKey, when set, authenticates the deposit endpoints with X-API-Key
	// instead of the session (SPEC.md §5).
	APIKey string
	// OnLogin, when set, is given every session a login opens, a renewal
	// included, so a store keeps the one in use (service/session).
	OnLogin func(Kept)
	// OnRenewed, when set, is given each session the credential of an
	// adopted one (Adopt) opens when it lapses, so a store keeps it in the
	// stored one's place; a session a Login opens, by whatever credential
	// (a builder's new API key), is this client's alone, and so are its
	// renewals.
	OnRenewed func(Kept)
	// OnRefused, when set, is given the session the service refused (401)
	// when no credential renews it, or whose renewal answered another
	// account, so a store stops offering it.
	OnRefused func(Kept)
}

// Client calls every endpoint of SPEC.md §4 for one environment. It is safe
// for concurrent use: screens run its methods inside tea.Cmds.
type Client struct {
	env       config.Environment
	http      *http.Client
	now       func() time.Time
	log       *slog.Logger
	retry     RetryPolicy
	apiKey    string
	session   sessionStore
	prepared  preparedCredentials
	onLogin   func(Kept)
	onRenewed func(Kept)
	onRefused func(Kept)
	// kept is the last reading of the service's /time, which stands for
	// its clock at later answers for a bounded while (keptReading).
	kept keptReading
}

// New returns a client for env.
func New(env config.Environment, opts Options) *Client {
	c := &Client{env: env, now: opts.Now, log: opts.Logger, retry: opts.Retry.orDefault(), apiKey: strings.TrimSpace(opts.APIKey), onLogin: opts.OnLogin, onRenewed: opts.OnRenewed, onRefused: opts.OnRefused}
	c.session.cookieName, c.session.accountHeader = env.Cookie(), env.AccountHeader()
	hc := http.Client{Timeout: DefaultTimeout}
	if opts.HTTPClient != nil {
		hc = *opts.HTTPClient
	}
	// The API defines no redirects; following one would carry the API key
	// and withdraw bodies to a host (or an http URL) nobody configured.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.http = &hc
	if c.now == nil {
		c.now = time.Now
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c
}

// Env is the environment the client talks to.
func (c *Client) Env() config.Environment { return c.env }

// ServerTime asks GET {market_data_url}/time (SPEC.md §4.3).
func (c *Client) ServerTime(ctx context.Context) (time.Time, error) {
	var st ServerTime
	if err := c.do(ctx, call{method: http.MethodGet, base: c.env.MarketDataURL, path: PathTime}, &st); err != nil {
		return time.Time{}, err
	}
	if st.ServerTime <= 0 {
		return time.Time{}, errors.New("the server sent no time; try again")
	}
	return time.UnixMilli(st.ServerTime), nil
}

// AuthorizeBuilder posts a signed builder authorization (SPEC.md §4.4, D14).
// It needs no session: the signature is the credential.
func (c *Client) AuthorizeBuilder(ctx context.Context, req BuilderAuthorizeRequest) (BuilderAuthorizeResult, error) {
	var res BuilderAuthorizeResult
	err := c.do(ctx, call{method: http.MethodPost, base: c.env.AuthURL, path: PathBuilderAuthorize, body: req}, &res)
	if req.BuilderAPIKeySigner == "" {
		// No key was asked for nor signed: one named is no key of this
		// authorization's (another account's), never shown or logged in with.
		res.APIKey = ""
	}
	return res, err
}

// DepositAddresses lists the account's chains and tokens (SPEC.md §4.5).
func (c *Client) DepositAddresses(ctx context.Context) ([]ChainInfo, error) {
	var res DepositAddresses
	err := c.doAuthed(ctx, call{method: http.MethodGet, base: c.env.BaseURL, path: PathDepositAddresses, depositAuth: true}, &res)
	return res.Chains, err
}

// GenerateAddress provisions (or returns) the deposit address of a chain (SPEC.md §4.6).
func (c *Client) GenerateAddress(ctx context.Context, chain string) (ChainInfo, error) {
	var res ChainInfo
	err := c.doAuthed(ctx, call{method: http.MethodPost, base: c.env.BaseURL, path: PathGenerateAddress,
		body: GenerateAddressRequest{Chain: chain}, depositAuth: true}, &res)
	if err == nil && !strings.EqualFold(res.Chain, chain) {
		// The answer would stand in for another chain's address.
		return ChainInfo{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: NewShapeError("chain", "is %s, not the %s asked for", res.Chain, safetext.Line(chain, safetext.MaxNameLen))}
	}
	if err == nil && res.Verdict() == DepositGenerate {
		// Not the address asked for: every face would call it ready.
		return ChainInfo{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: NewShapeError("deposit address", "is empty, though one was asked to be generated")}
	}
	return res, err
}

// WithdrawalInfo returns the provider, the bridge funding address and the routes (SPEC.md §4.7).
func (c *Client) WithdrawalInfo(ctx context.Context) (WithdrawalInfo, error) {
	var res WithdrawalInfo
	err := c.doAuthed(ctx, call{method: http.MethodGet, base: c.env.BaseURL, path: PathWithdrawalInfo}, &res)
	return res, err
}

// Quote asks for a withdrawal quote (SPEC.md §4.8). Asking changes
// nothing, so a 429 is waited out (Patiently) for every face alike.
func (c *Client) Quote(ctx context.Context, req QuoteRequest) (Quote, error) {
	return Patiently(ctx, c.retry, func(ctx context.Context) (Quote, error) {
		var res Quote
		err := c.doAuthed(ctx, call{method: http.MethodPost, base: c.env.BaseURL, path: PathWithdrawalQuote, body: req}, &res)
		// Only the request says which token the receive amount is in.
		if d := TokenDecimalsOf(req.TokenOut); err == nil && !res.ReceiveAmount.Equal(res.ReceiveAmount.Truncate(int32(d))) {
			return Quote{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: NewShapeError("receive amount", "has more than %d decimal places for %s", d, safetext.Line(req.TokenOut, safetext.MaxNameLen))}
		}
		if err == nil {
			if bad := res.addsUp(req.TokenIn, req.TokenOut); bad != nil {
				return Quote{}, &UnreadableAnswerError{Status: http.StatusOK, Reason: bad}
			}
		}
		return res, err
	})
}

// WithdrawalStatus reads a withdrawal's status record (SPEC.md §4.10). A
// CREATED record comes with the service's clock when it was read, at the
// least (ServiceTime; zero when /time could not be read), for the decision
// that its quote can no longer execute; so does a not found (ErrNotFound,
// with a record of the quote id and that clock only), which a request sent
// with no answer may yet change until then. That clock is a reading kept
// from an earlier answer (ServiceTimeKept) while one is, so a run of
// unknown ids asks /time once in KeptReadingLife, not once an id; a
// reading kept never decides that a quote can no longer execute
// (ServiceTimeAfter reads it again first).
func (c *Client) WithdrawalStatus(ctx context.Context, quoteID string) (Withdrawal, error) {
	var res Withdrawal
	if c.OwnSecret(quoteID) {
		return res, ErrOwnSecret // never sent: an API key typed as a quote id
	}
	path := PathWithdrawalStatus + "?quote_id=" + url.QueryEscape(quoteID)
	sent := c.now()
	err := c.doAuthed(ctx, call{method: http.MethodGet, base: c.env.BaseURL, path: path}, &res)
	if err == nil && res.QuoteID != quoteID {
		// A record of another withdrawal must never be shown as this one.
		return Withdrawal{}, &UnreadableAnswerError{Status: http.StatusOK,
			Reason: NewShapeError("status record", "is for another quote id than the one asked")}
	}
	if errors.Is(err, ErrNotFound) {
		res = Withdrawal{QuoteID: quoteID}
	}
	if err == nil && res.State == StateCreated || errors.Is(err, ErrNotFound) {
		res.asked = sent
		if t, ok := c.kept.at(sent, c.now()); ok {
			res.ServiceTime, res.ServiceTimeKept = t, true
		} else {
			res.ServiceTime, _ = c.ServiceTimeSince(ctx, sent)
		}
	}
	return res, err
}

// call is one request: where it goes, what it sends, how it authenticates.
type call struct {
	method      string
	base        string
	path        string
	body        any
	depositAuth bool // X-API-Key accepted in place of the session
	// authed: a base_url endpoint that takes the session (doAuthed). Only
	// these carry the cookie and the account id (SPEC.md §5): /time on
	// market_data_url and the logins and builder authorization on
	// auth_url take none, and their hosts may be others.
	authed     bool
	with       Kept // the session an authed call goes with
	cookieRM   bool // the API-key login sample sends "Cookie: rm=true;" (SPEC.md §4.1)
	respHeader *http.Header
	secret     string // the credential a login carries, never said back (ownSecrets)
	// as, when set, is the session the call's first attempt was asked on:
	// a later one goes only as its account (Withdraw's retries).
	as *Kept
}

// doAuthed sends an authenticated request, logging in again when the session
// is about to lapse or the service answers 401 (D6).
func (c *Client) doAuthed(ctx context.Context, cl call, out any) error {
	if cl.depositAuth && c.apiKey != "" {
		return c.do(ctx, cl, out)
	}
	cl.authed = true
	// It is asked as the account the session is now, renewed or not, and
	// never as a login made meanwhile's (again); a 401 renews the session
	// it went with alone (relogin).
	asked, _ := c.session.renewal()
	if cl.as != nil {
		asked = *cl.as
	}
	if err := pinned(ctx, asked); err != nil {
		return err
	}
	if err := c.ensureSession(ctx); err != nil {
		// No session to send it with: it never left.
		return &NotSentError{Err: err}
	}
	was, cred, err := c.again(asked)
	if err != nil {
		return &NotSentError{Err: err}
	}
	cl.with = was
	err = c.do(ctx, cl, out)
	if !errors.Is(err, ErrUnauthenticated) {
		return err
	}
	if cred == nil {
		if rerr, replaced := c.refused(err, was.Cookie); !replaced {
			return rerr
		}
	} else if rerr := c.relogin(ctx, cred, was, err); rerr != nil {
		return sentOnce(rerr)
	}
	// The first went and was refused: what follows is never "not sent".
	if cl.with, _, err = c.again(was); err != nil {
		return sentOnce(err)
	}
	return sentOnce(c.do(ctx, cl, out))
}

// do sends one request and decodes a 2xx JSON answer into out.
func (c *Client) do(ctx context.Context, cl call, out any) error {
	// Whether the transport got a connection, on any try of its own (an
	// HTTP/2 or idempotent request is replayed after a reset): once it did,
	// the request may have been written, whatever error ends it.
	var connected atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }})
	req, err := c.newRequest(ctx, cl)
	if err != nil {
		return &NotSentError{Err: err}
	}
	if err := ctx.Err(); err != nil {
		return &NotSentError{Err: &TransportError{Op: cl.method + " " + pathOnly(cl.path), Host: req.URL.Host, Err: err}}
	}
	start := c.now()
	resp, err := c.http.Do(req)
	if err != nil {
		c.log.Debug("request failed", "method", cl.method, "path", pathOnly(cl.path), "error_kind", transportKind(err))
		te := &TransportError{Op: cl.method + " " + pathOnly(cl.path), Host: req.URL.Host, Err: err}
		if dialFailed(err) && !connected.Load() {
			return &NotSentError{Err: te}
		}
		return te
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	c.log.Debug("request", "method", cl.method, "path", pathOnly(cl.path), "status", resp.StatusCode, "duration", c.now().Sub(start))
	if err != nil {
		return &TransportError{Op: cl.method + " " + pathOnly(cl.path), Host: req.URL.Host, Err: err}
	}
	if cl.respHeader != nil {
		*cl.respHeader = resp.Header
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		err := decodeError(resp.StatusCode, body)
		if e, ok := err.(*APIError); ok {
			e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"))
			e.Message = maskSecrets(e.Message, c.prepared.of(c.ownSecrets(cl.secret)))
		}
		return err
	}
	if out == nil || len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	secrets := c.prepared.of(c.ownSecrets(cl.secret))
	if err := Decode(body, out); err != nil {
		var se *ShapeError
		if errors.As(err, &se) {
			return &UnreadableAnswerError{Status: resp.StatusCode, Reason: refusalNotSayingBack(se, secrets)}
		}
		return &UnreadableAnswerError{Status: resp.StatusCode}
	}
	if a, ok := out.(answer); ok {
		if err := a.cleanAnswer(serverNow(resp.Header, c.now)); err != nil {
			return &UnreadableAnswerError{Status: resp.StatusCode, Reason: refusalNotSayingBack(err, secrets)}
		}
	}
	if err := refuseSaidBack(out, secrets); err != nil {
		return &UnreadableAnswerError{Status: resp.StatusCode, Reason: err}
	}
	return nil
}

// serverNow is the server's clock at an answer (its Date header), or ours
// when it sent none.
func serverNow(h http.Header, now func() time.Time) time.Time {
	if t, err := http.ParseTime(h.Get("Date")); err == nil {
		return t
	}
	return now()
}

// UnreadableAnswerError is a success status whose body does not decode, or
// does not have the shape of its fields (Reason): the request did what it
// asked, only the details cannot be trusted.
type UnreadableAnswerError struct {
	Status int
	Reason error // a *ShapeError, or nil when the body is not JSON of the right form
}

func (e *UnreadableAnswerError) Error() string {
	if e.Reason != nil {
		return e.Reason.Error()
	}
	return fmt.Sprintf("the service answered HTTP %d with a body svcwallet cannot read", e.Status)
}

func (e *UnreadableAnswerError) Unwrap() error { return e.Reason }

func (c *Client) newRequest(ctx context.Context, cl call) (*http.Request, error) {
	apiKey := cl.secret // a login's
	if cl.depositAuth {
		apiKey = c.apiKey
	}
	switch safetext.TypedSecret(apiKey) {
	case safetext.KeySecret:
		return nil, ErrAPIKeyKeyShape
	case safetext.PhraseSecret:
		return nil, ErrAPIKeySecretShape
	}
	if apiKey != "" {
		if err := CheckAPIKey(apiKey); err != nil {
			return nil, err
		}
	}
	var body io.Reader
	if cl.body != nil {
		b, err := json.Marshal(cl.body)
		if err != nil {
			return nil, fmt.Errorf("encode request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, cl.method, strings.TrimRight(cl.base, "/")+cl.path, body)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if cl.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cl.cookieRM {
		req.AddCookie(&http.Cookie{Name: "rm", Value: "true"})
	}
	switch {
	case cl.depositAuth && c.apiKey != "":
		req.Header.Set(HeaderAPIKey, c.apiKey)
	case cl.authed:
		c.session.apply(req, cl.with)
	}
	return req, nil
}

// decodeError turns a non-2xx answer into an *APIError; any body (HTML, empty,
// foreign JSON) is tolerated and never copied into the message.
func decodeError(status int, body []byte) error {
	var eb ErrorBody
	e := &APIError{Status: status}
	if Decode(body, &eb) == nil && eb.Code != 0 {
		e.Code = Code(eb.Code)
		e.Message = safetext.Line(eb.Message, maxTextLen)
	}
	return e
}

// retryAfter reads a Retry-After header given in seconds (the only form the
// service sends); anything else, or a value over an hour, counts as absent.
func retryAfter(h string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(h))
	if err != nil || n < 0 || n > 3600 {
		return 0
	}
	return time.Duration(n) * time.Second
}

func pathOnly(p string) string {
	path, _, _ := strings.Cut(p, "?")
	return path
}

// TransportError is a request that got no HTTP answer: unreachable host,
// timeout, reset connection.
type TransportError struct {
	Op   string
	Host string
	Err  error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("cannot reach %s (%s): %s", e.Host, e.Op, e.Kind())
}

// Kind names the failure in words: "timed out", "connection refused", ...
func (e *TransportError) Kind() string { return transportKind(e.Err) }

func (e *TransportError) Unwrap() error { return e.Err }

// isCertificateOutOfDate reports whether err is a TLS certificate refused
// for its dates: x509 says expired and not yet valid as one reason.
func isCertificateOutOfDate(err error) bool {
	var ci x509.CertificateInvalidError
	return errors.As(err, &ci) && ci.Reason == x509.Expired
}

// transportKind names a network failure in words, without URLs or bodies.
func transportKind(err error) string {
	var ne interface{ Timeout() bool }
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timed out"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "connection reset"), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection reset"
	case strings.Contains(err.Error(), "no such host"):
		return "unknown host"
	// In fixed words: a certificate's names are the host's to choose.
	case errors.As(err, new(x509.UnknownAuthorityError)):
		return "its TLS certificate is signed by no authority this system trusts"
	case errors.As(err, new(x509.HostnameError)):
		return "its TLS certificate is for another host"
	case isCertificateOutOfDate(err):
		return "its TLS certificate has expired or is not yet valid (check this computer's clock)"
	}
	return "network error"
}
