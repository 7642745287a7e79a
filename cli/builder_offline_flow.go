package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"svcwallet/service"
	"svcwallet/service/builder"
	"svcwallet/service/journal"
	"svcwallet/signer"
)

// builderSubmitMargin is the least time a prepared authorization must still be
// valid for when it is submitted: the request must arrive before it ends.
const builderSubmitMargin = time.Minute

// builderPrepared is a builder authorization this machine prepared for offline
// signing, as its journal keeps it: the order (the builder API key's label
// and signer included, which the file's message lacks or only signs) and
// when it was prepared.
type builderPrepared struct {
	Order builder.Order
	At    time.Time
}

// TypedData is the file written for the wallet: the eth_signTypedData_v4
// JSON of the order's message, and a newline.
func (p builderPrepared) TypedData() []byte {
	return append(signer.TypedDataJSON(p.Order.Domain, p.Order.Message), '\n')
}

// line is the journal's form of o.
func builderLine(o builder.Order) *journal.BuilderAuth {
	a := o.Auth
	nonce, exp := o.Message.NonceExpiration()
	b := &journal.BuilderAuth{Domain: o.Domain, Main: a.Main, Builder: a.Builder, Futures: a.Futures, Spot: a.Spot, Nonce: nonce, Expiration: exp}
	if a.WithKey {
		ks := a.KeySigner
		b.Label, b.KeySigner, b.Permissions = a.Label, &ks, a.Perms.String()
	}
	return b
}

// builderFromLine is the order a journaled builder line keeps (shape-checked when
// it was read).
func builderFromLine(b *journal.BuilderAuth, at time.Time) (builderPrepared, error) {
	a := builder.Auth{Main: b.Main, Builder: b.Builder, Futures: b.Futures, Spot: b.Spot, Validity: time.Unix(0, b.Expiration).Sub(at)}
	if b.KeySigner != nil {
		perms, err := signer.ParsePermissions(b.Permissions)
		if err != nil {
			return builderPrepared{}, err
		}
		a.WithKey, a.Label, a.KeySigner, a.Perms = true, b.Label, *b.KeySigner, perms
	}
	return builderPrepared{Order: builder.Order{Auth: a, Domain: b.Domain, Message: a.Message(b.Nonce, b.Expiration)}, At: at}, nil
}

// Prepare makes o one to sign offline by its main account: the clocks must
// agree (SigningNow, as Authorize checks before signing), and the journal
// keeps (fsynced) everything Submit needs, since the file holds only the
// typed data. Nothing is signed or sent. now is when it was prepared, the
// clock o's expiration was computed on. The error is written for the user.
func prepareBuilder(ctx context.Context, c *service.Client, j *journal.Journal, o builder.Order, now time.Time) (builderPrepared, error) {
	if _, err := c.SigningNow(ctx); err != nil {
		return builderPrepared{}, err
	}
	e := journal.Entry{Time: now, Kind: journal.KindBuilderPrepared, Env: c.Env().Name, Builder: builderLine(o)}
	if err := j.Append(e); err != nil {
		return builderPrepared{}, service.UserError{Text: "Not prepared: the journal " + j.Path() + " could not record it (" + err.Error() + ")", Cause: err}
	}
	return builderPrepared{Order: o, At: now}, nil
}

// errBuilderNotPrepared is a file that is not the typed data of a builder
// authorization this journal prepared for the environment.
var errBuilderNotPrepared = errors.New("this file is not a builder authorization prepared on this machine for this environment, or it was changed since: nothing was sent")

// builderSubmittedError is a prepared builder authorization whose signature was
// sent already.
type builderSubmittedError struct{ At time.Time }

func (e *builderSubmittedError) Error() string {
	return "this prepared builder authorization was submitted already (" + e.At.UTC().Format(time.RFC3339) +
		"): nothing was sent again; if that submission got no answer it may have gone through, otherwise prepare a new one"
}

// findBuilderPrepared finds the builder line whose typed data file is (trailing
// spaces and newlines aside) among the journal's entries of env, and
// refuses one sent already.
func findBuilderPrepared(entries []journal.Entry, env string, file []byte) (builderPrepared, error) {
	file = bytes.TrimRight(file, " \t\r\n")
	var found *journal.Entry
	var p builderPrepared
	for i := range entries {
		e := &entries[i]
		if e.Kind != journal.KindBuilderPrepared || e.Env != env {
			continue
		}
		q, err := builderFromLine(e.Builder, e.Time)
		if err == nil && bytes.Equal(signer.TypedDataJSON(q.Order.Domain, q.Order.Message), file) {
			found, p = e, q
		}
	}
	if found == nil {
		return builderPrepared{}, errBuilderNotPrepared
	}
	for _, e := range entries {
		if e.Kind == journal.KindBuilderSent && e.Env == env && sameBuilderMessage(e.Builder, found.Builder) {
			return builderPrepared{}, &builderSubmittedError{At: e.Time}
		}
	}
	return p, nil
}

// sameBuilderMessage reports whether two builder lines sign the same message.
func sameBuilderMessage(a, b *journal.BuilderAuth) bool {
	x, y := *a, *b
	x.KeySigner, y.KeySigner = nil, nil
	return x == y && (a.KeySigner == nil) == (b.KeySigner == nil) && (a.KeySigner == nil || *a.KeySigner == *b.KeySigner)
}

// Submit sends a prepared builder authorization with the signature made
// offline, once: the message must still be valid (and not outlive
// builder.MaxValidity), be for this environment's domain, and the signature must
// recover to the main account over the digest computed here (signer.Sign);
// then a sent line is journaled (fsynced; the caller holds
// journal.Exclusive from findBuilderPrepared on) and the request leaves, with
// builder.AuthorizeTimeout. Nothing is sent when any check fails. Service refusals
// come back as they are, for Explain.
func submitBuilder(ctx context.Context, c *service.Client, j *journal.Journal, p builderPrepared, sig [65]byte, now func() time.Time) (service.BuilderAuthorizeResult, error) {
	o := p.Order
	signingNow, err := c.SigningNow(ctx)
	if err != nil {
		return service.BuilderAuthorizeResult{}, err
	}
	exp := o.Expiration()
	switch {
	case !exp.After(signingNow.Add(builderSubmitMargin)):
		return service.BuilderAuthorizeResult{}, service.UserError{Text: fmt.Sprintf("The prepared builder authorization expired at %s: nothing was sent; prepare it again", exp.UTC().Format(time.RFC3339))}
	case exp.After(signingNow.Add(builder.MaxValidity)) || exp.After(p.At.Add(builder.MaxValidity)):
		return service.BuilderAuthorizeResult{}, service.UserError{Text: fmt.Sprintf("The prepared builder authorization stays valid until %s, more than 30 days after it was prepared: nothing was sent; check your clock and prepare it again", exp.UTC().Format(time.RFC3339))}
	case o.Domain != c.Env().Domain():
		return service.BuilderAuthorizeResult{}, service.UserError{Text: "The prepared builder authorization was made for another EIP-712 domain than this environment's: nothing was sent"}
	}
	checked, err := signer.Sign(ctx, signer.Presigned(o.Auth.Main, sig), o.Domain, o.Message)
	if err != nil {
		return service.BuilderAuthorizeResult{}, service.SignFailure(err)
	}
	e := journal.Entry{Time: now(), Kind: journal.KindBuilderSent, Env: c.Env().Name, Builder: builderLine(o)}
	if err := j.Append(e); err != nil {
		return service.BuilderAuthorizeResult{}, service.UserError{Text: "Not sent: the journal " + j.Path() + " could not record it (" + err.Error() + ")", Cause: err}
	}
	cx, cancel := context.WithTimeout(context.WithoutCancel(ctx), builder.AuthorizeTimeout)
	defer cancel()
	return c.AuthorizeBuilder(cx, o.Auth.Request(checked))
}
