package builder

import (
	"context"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
)

// submitMargin is the least time a prepared authorization must still be
// valid for when it is submitted: the request must arrive before it ends.
const submitMargin = time.Minute

// Prepared is a builder authorization this machine prepared for offline
// signing: the intent its journal line keeps, and the order (the builder
// API key's label and signer included, which the file's message lacks or
// only signs).
type Prepared struct {
	intent.Prepared
	Order Order
}

// journalLine is the journal's form of o.
func journalLine(o Order) *journal.BuilderAuth {
	nonce, exp := o.Message.NonceExpiration()
	return o.Auth.line(o.Domain, nonce, exp)
}

// PreparedOf is the authorization a prepared line keeps (intent.Find),
// with its order rebuilt from it.
func PreparedOf(p intent.Prepared) (Prepared, error) {
	b := p.Line.Builder
	a := Auth{Main: b.Main, Builder: b.Builder, Futures: b.Futures, Spot: b.Spot, Validity: time.Unix(0, b.Expiration).Sub(p.Line.Time)}
	if b.KeySigner != nil {
		perms, err := signer.ParsePermissions(b.Permissions)
		if err != nil {
			return Prepared{}, err
		}
		a.WithKey, a.Label, a.KeySigner, a.Perms = true, b.Label, *b.KeySigner, perms
	}
	return Prepared{Prepared: p, Order: Order{Auth: a, Domain: b.Domain, Message: b.Message()}}, nil
}

// Prepare makes o one to sign offline by its main account: the clocks
// must agree (SigningNow, as Authorize checks before signing), and the
// journal keeps (fsynced) everything Submit needs (intent.Prepare), the
// service it is for with it, which Submit holds to (intent.Prepared.Check).
// Nothing is signed or sent. now is when it was prepared, the clock o's
// expiration was computed on. The error is written for the user.
func Prepare(ctx context.Context, c *exchange.Client, j *journal.Journal, o Order, now time.Time) (Prepared, error) {
	if err := o.grantAnswered(); err != nil {
		return Prepared{}, err
	}
	if err := Signable(j); err != nil {
		return Prepared{}, err
	}
	p, err := intent.Prepare(ctx, c, j, func(time.Time) journal.Entry {
		return journal.Entry{Time: now, Kind: journal.KindPrepared, Env: c.Env().Name, Service: new(c.Env().Service()), Builder: journalLine(o),
			Prepared: &journal.Prepared{Kind: journal.PreparedBuilder, Signer: o.Auth.Main}}
	})
	return Prepared{Prepared: p, Order: o}, err
}

// Submit sends a prepared builder authorization with its offline
// signature, once it passes intent.Prepared.Check: its sent line is
// journaled first, under the journal's lock with the check that none was
// (*intent.SubmittedError). Service refusals come back as they are, for
// Explain; sending says whether err is the request's (Auth.Failed judges
// it) or came before it.
func Submit(ctx context.Context, c *exchange.Client, j *journal.Journal, p Prepared, sig [65]byte, now func() time.Time) (_ exchange.BuilderAuthorizeResult, sending bool, _ error) {
	if err := signableToSend(j); err != nil {
		return exchange.BuilderAuthorizeResult{}, false, err
	}
	checked, _, err := p.Check(ctx, c, sig, intent.Limits{Margin: submitMargin, Life: MaxValidity})
	if err != nil {
		return exchange.BuilderAuthorizeResult{}, false, err
	}
	var refused error
	sent := journal.Entry{Time: now(), Kind: journal.KindBuilderSent, Env: c.Env().Name, Builder: journalLine(p.Order)}
	if err := j.AppendGuarded(func() error { refused = p.Unsent(j)(); return refused }, sent); err != nil {
		if refused == nil {
			err = exchange.UserError{Head: "Not sent", Text: "the journal " + safetext.Shown(j.Path()) + " could not record it (" + err.Error() + ")", Cause: err}
		}
		return exchange.BuilderAuthorizeResult{}, false, err
	}
	cx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AuthorizeTimeout)
	defer cancel()
	res, err := c.AuthorizeBuilder(cx, p.Order.Auth.Request(checked))
	return res, true, err
}
