package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// submitMargin is the least time a prepared authorization must still be
// valid for when it is submitted: the request must arrive before it ends.
const submitMargin = time.Minute

// Prepared is a builder authorization this machine prepared for offline
// signing, as its journal keeps it: the order (the builder API key's label
// and signer included, which the file's message lacks or only signs) and
// when it was prepared.
type Prepared struct {
	Order Order
	At    time.Time
}

// TypedData is the file written for the wallet: the eth_signTypedData_v4
// JSON of the order's message, and a newline.
func (p Prepared) TypedData() []byte {
	return append(signer.TypedDataJSON(p.Order.Domain, p.Order.Message), '\n')
}

// journalLine is the journal's form of o.
func journalLine(o Order) *journal.BuilderAuth {
	a := o.Auth
	nonce, exp := o.Message.NonceExpiration()
	b := &journal.BuilderAuth{Domain: o.Domain, Main: a.Main, Builder: a.Builder, Futures: a.Futures, Spot: a.Spot, Nonce: nonce, Expiration: exp}
	if a.WithKey {
		ks := a.KeySigner
		b.Label, b.KeySigner, b.Permissions = a.Label, &ks, a.Perms.String()
	}
	return b
}

// fromLine is the order a journaled builder line keeps (shape-checked when
// it was read).
func fromLine(b *journal.BuilderAuth, at time.Time) (Prepared, error) {
	a := Auth{Main: b.Main, Builder: b.Builder, Futures: b.Futures, Spot: b.Spot, Validity: time.Unix(0, b.Expiration).Sub(at)}
	if b.KeySigner != nil {
		perms, err := signer.ParsePermissions(b.Permissions)
		if err != nil {
			return Prepared{}, err
		}
		a.WithKey, a.Label, a.KeySigner, a.Perms = true, b.Label, *b.KeySigner, perms
	}
	return Prepared{Order: Order{Auth: a, Domain: b.Domain, Message: a.Message(b.Nonce, b.Expiration)}, At: at}, nil
}

// Prepare makes o one to sign offline by its main account: the clocks must
// agree (SigningNow, as Authorize checks before signing), and the journal
// keeps (fsynced) everything Submit needs, since the file holds only the
// typed data. Nothing is signed or sent. now is when it was prepared, the
// clock o's expiration was computed on. The error is written for the user.
func Prepare(ctx context.Context, c *exchange.Client, j *journal.Journal, o Order, now time.Time) (Prepared, error) {
	if _, err := c.SigningNow(ctx); err != nil {
		return Prepared{}, err
	}
	e := journal.Entry{Time: now, Kind: journal.KindPrepared, Env: c.Env().Name, Builder: journalLine(o),
		Prepared: &journal.Prepared{Kind: journal.PreparedBuilder, Signer: o.Auth.Main}}
	if err := j.Append(e); err != nil {
		return Prepared{}, exchange.UserError{Text: "Not prepared: the journal " + j.Path() + " could not record it (" + err.Error() + ")", Cause: err}
	}
	return Prepared{Order: o, At: now}, nil
}

// errNotPrepared is a file that is not the typed data of a builder
// authorization this journal prepared for the environment.
var errNotPrepared = errors.New("this file is not a builder authorization prepared on this machine for this environment, or it was changed since: nothing was sent")

// SubmittedError is a prepared builder authorization whose signature was
// sent already.
type SubmittedError struct{ At time.Time }

func (e *SubmittedError) Error() string {
	return "this prepared builder authorization was submitted already (" + e.At.UTC().Format(time.RFC3339) +
		"): nothing was sent again; if that submission got no answer it may have gone through, otherwise prepare a new one"
}

// FindPrepared finds the builder line whose typed data file is (trailing
// spaces and newlines aside) among the journal's entries of env, and
// refuses one sent already.
func FindPrepared(entries []journal.Entry, env string, file []byte) (Prepared, error) {
	file = bytes.TrimRight(file, " \t\r\n")
	var found *journal.Entry
	var p Prepared
	for i := range entries {
		e := &entries[i]
		if e.Kind != journal.KindPrepared || e.Prepared.Kind != journal.PreparedBuilder || e.Env != env {
			continue
		}
		q, err := fromLine(e.Builder, e.Time)
		if err == nil && bytes.Equal(signer.TypedDataJSON(q.Order.Domain, q.Order.Message), file) {
			found, p = e, q
		}
	}
	if found == nil {
		return Prepared{}, errNotPrepared
	}
	for _, e := range entries {
		if e.Kind == journal.KindBuilderSent && e.Env == env && sameMessage(e.Builder, found.Builder) {
			return Prepared{}, &SubmittedError{At: e.Time}
		}
	}
	return p, nil
}

// sameMessage reports whether two builder lines sign the same message.
func sameMessage(a, b *journal.BuilderAuth) bool {
	x, y := *a, *b
	x.KeySigner, y.KeySigner = nil, nil
	return x == y && (a.KeySigner == nil) == (b.KeySigner == nil) && (a.KeySigner == nil || *a.KeySigner == *b.KeySigner)
}

// Submit sends a prepared builder authorization with the signature made
// offline, once: the message must still be valid (and not outlive
// MaxValidity), be for this environment's domain, and the signature must
// recover to the main account over the digest computed here (signer.Sign);
// then a sent line is journaled (fsynced; the caller holds
// journal.Exclusive from FindPrepared on) and the request leaves, with
// AuthorizeTimeout. Nothing is sent when any check fails. Service refusals
// come back as they are, for Explain.
func Submit(ctx context.Context, c *exchange.Client, j *journal.Journal, p Prepared, sig [65]byte, now func() time.Time) (exchange.BuilderAuthorizeResult, error) {
	o := p.Order
	signingNow, err := c.SigningNow(ctx)
	if err != nil {
		return exchange.BuilderAuthorizeResult{}, err
	}
	exp := o.Expiration()
	switch {
	case !exp.After(signingNow.Add(submitMargin)):
		return exchange.BuilderAuthorizeResult{}, exchange.UserError{Text: fmt.Sprintf("The prepared builder authorization expired at %s: nothing was sent; prepare it again", exp.UTC().Format(time.RFC3339))}
	case exp.After(signingNow.Add(MaxValidity)) || exp.After(p.At.Add(MaxValidity)):
		return exchange.BuilderAuthorizeResult{}, exchange.UserError{Text: fmt.Sprintf("The prepared builder authorization stays valid until %s, more than 30 days after it was prepared: nothing was sent; check your clock and prepare it again", exp.UTC().Format(time.RFC3339))}
	case o.Domain != c.Env().Domain():
		return exchange.BuilderAuthorizeResult{}, exchange.UserError{Text: "The prepared builder authorization was made for another EIP-712 domain than this environment's: nothing was sent"}
	}
	checked, err := signer.Sign(ctx, signer.Presigned(o.Auth.Main, sig), o.Domain, o.Message)
	if err != nil {
		return exchange.BuilderAuthorizeResult{}, exchange.SignFailure(err)
	}
	e := journal.Entry{Time: now(), Kind: journal.KindBuilderSent, Env: c.Env().Name, Builder: journalLine(o)}
	if err := j.Append(e); err != nil {
		return exchange.BuilderAuthorizeResult{}, exchange.UserError{Text: "Not sent: the journal " + j.Path() + " could not record it (" + err.Error() + ")", Cause: err}
	}
	cx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AuthorizeTimeout)
	defer cancel()
	return c.AuthorizeBuilder(cx, o.Auth.Request(checked))
}
