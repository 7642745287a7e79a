package builder

import (
	"context"
	"errors"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"strconv"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
)

// Order is one builder authorization ready to sign: what the user
// checked (Auth) and the typed message built from it, which the console's
// review and `builder authorize --dry-run` show as it will be signed.
type Order struct {
	Auth    Auth
	Domain  signer.Domain
	Message signer.Message
	// Granted: the person answered a key that may move funds on its own,
	// or named its grant beforehand (AcceptsGrant); without it such a
	// key is neither signed nor prepared, whichever face forgot to ask.
	Granted bool
}

// NewOrder builds the message for a with this nonce, expiring the
// chosen validity after now (this machine's clock, which SigningNow holds
// within MaxClockSkew of the service's; builderClockMargin keeps the
// expiry inside the service's 30-day cap either way).
func NewOrder(a Auth, d signer.Domain, nonce uint32, now time.Time) Order {
	return Order{Auth: a, Domain: d, Message: a.Message(nonce, a.Expiration(now))}
}

// Expiration is the signature deadline of the order's message.
func (o Order) Expiration() time.Time {
	_, exp := o.Message.NonceExpiration()
	return time.Unix(0, exp)
}

// AuthorizeTimeout bounds the authorization request once it is signed.
const AuthorizeTimeout = 30 * time.Second

// Authorize is the one builder authorization workflow, for the
// console and the command line: nothing is signed when the key load
// returns is not the main account's or the clocks disagree (SigningNow);
// nothing is sent when the signature does not recover to it
// (signer.Sign). The signature may wait for a person (clef, a device)
// as long as ctx allows; the request then gets AuthorizeTimeout. The
// signed body is returned with the outcome, so a lost answer is re-sent
// (AuthorizeBuilder with the same body), never signed again. Service
// refusals come back as they are, for Explain.
func (o Order) Authorize(ctx context.Context, c *exchange.Client, j *journal.Journal, load func() (signer.Key, error)) (exchange.BuilderAuthorizeRequest, exchange.BuilderAuthorizeResult, error) {
	if err := o.grantAnswered(); err != nil {
		return exchange.BuilderAuthorizeRequest{}, exchange.BuilderAuthorizeResult{}, err
	}
	if err := signableToSend(j); err != nil {
		return exchange.BuilderAuthorizeRequest{}, exchange.BuilderAuthorizeResult{}, err
	}
	// The key first: a wrong passphrase costs no request.
	k, err := load()
	if err != nil {
		return exchange.BuilderAuthorizeRequest{}, exchange.BuilderAuthorizeResult{}, err
	}
	if _, err := c.SigningNow(ctx); err != nil {
		return exchange.BuilderAuthorizeRequest{}, exchange.BuilderAuthorizeResult{}, err
	}
	if k.Address() != o.Auth.Main {
		return exchange.BuilderAuthorizeRequest{}, exchange.BuilderAuthorizeResult{}, exchange.UserError{Text: "The available key is " + k.Address().Hex() +
			", not the main account's " + o.Auth.Main.Hex() + ": only the main account's key can authorize a builder"}
	}
	sig, err := signer.Sign(ctx, k, o.Domain, o.Message)
	if err != nil {
		return exchange.BuilderAuthorizeRequest{}, exchange.BuilderAuthorizeResult{}, exchange.SignFailure(err)
	}
	req := o.Auth.Request(sig)
	cx, cancel := context.WithTimeout(ctx, AuthorizeTimeout)
	defer cancel()
	res, err := c.AuthorizeBuilder(cx, req)
	return req, res, err
}

// Signable refuses to sign on a journal that lost lines svcwallet wrote
// to it (*journal.RolledBackError, as it is), as a withdrawal is refused:
// nothing is signed on the account until the user has looked (doctor).
// A journal that cannot be checked refuses too; nil (no journal) signs.
func Signable(j *journal.Journal) error { return signable(j, j.CheckWritten) }

// signableToSend is Signable for the check that guards a signature or a
// send the person answered: the journal's write lock is waited for
// without end (journal.CheckWrittenBeforeSend), as the sent line's is.
func signableToSend(j *journal.Journal) error { return signable(j, j.CheckWrittenBeforeSend) }

// signable is Signable with check, the journal's CheckWritten.
func signable(j *journal.Journal, check func(whole bool) error) error {
	err := check(false)
	if err != nil && !errors.As(err, new(*journal.RolledBackError)) {
		return exchange.UserError{Text: "Nothing was signed: the journal " + safetext.Shown(j.Path()) + " could not be checked against what svcwallet wrote to it (" + err.Error() + ")", Cause: err}
	}
	return err
}

// Unchecked says what a signature made anew would do after an outcome
// unknown, and how to tell first: the interface (SPEC.md §4.4) offers no
// look-up of a builder's authorization, so only the exchange's web UI tells.
func (a Auth) Unchecked() string {
	seen := "the builder's authorization in the exchange's web UI"
	if a.WithKey {
		seen = "the API key list in the exchange's web UI for the key labelled " + strconv.Quote(a.Label)
	}
	return "the service offers no way to ask whether a builder is authorized, so check " + seen +
		" before authorizing again: a new authorization is signed anew and may authorize " + a.Builder.Hex() + " twice"
}
