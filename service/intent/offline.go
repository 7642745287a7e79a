package intent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
)

// Prepared is an intent prepared for offline signing: the file a wallet
// signs holds only the typed data, its journal line (Line) all the rest.
type Prepared struct {
	Intent
	Line journal.Entry
}

// Kind is journal.PreparedWithdrawal or journal.PreparedBuilder.
func (p Prepared) Kind() string { return p.Line.Prepared.Kind }

// File is the file written for the wallet: the typed data and a newline.
func (p Prepared) File() []byte { return append(p.TypedData(), '\n') }

func fromLine(e journal.Entry) Prepared {
	d, m, _ := e.Typed()
	return Prepared{Intent: Intent{Domain: d, Message: m, Signer: e.Prepared.Signer}, Line: e}
}

// nouns name each kind in its refusals, and how to start again.
var nouns = map[string]struct{ noun, again string }{
	journal.PreparedWithdrawal: {"Transfer", "prepare the withdrawal again"},
	journal.PreparedBuilder:    {"builder authorization", "prepare it again"},
}

// Prepare journals (fsynced) the prepared line that line makes at now, a
// time the clocks agree on (SigningNow). Nothing is signed or sent.
func Prepare(ctx context.Context, c *exchange.Client, j *journal.Journal, line func(now time.Time) journal.Entry) (Prepared, error) {
	if j == nil {
		return Prepared{}, errors.New("offline signing needs the journal, where what it prepares is kept")
	}
	now, err := c.SigningNow(ctx)
	if err != nil {
		return Prepared{}, err
	}
	e := line(now)
	if err := j.Append(e); err != nil {
		return Prepared{}, exchange.UserError{Text: "Not prepared: the journal " + safetext.Shown(j.Path()) + " could not record it (" + err.Error() + ")", Cause: err}
	}
	return fromLine(e), nil
}

// SubmittedError is a prepared intent whose signature was sent already: as
// the withdrawal QuoteID, or a builder authorization At that time.
type SubmittedError struct {
	Kind, QuoteID string
	At            time.Time
}

func (e *SubmittedError) Error() string {
	if e.QuoteID != "" {
		return "this prepared Transfer was submitted already, as withdrawal " + e.QuoteID + ": nothing was sent again"
	}
	return "this prepared " + nouns[e.Kind].noun + " was submitted already (" + e.At.UTC().Format(time.RFC3339) +
		"): nothing was sent again; if that submission got no answer it may have gone through, otherwise prepare a new one"
}

// Find finds the prepared line of kind whose typed data is file (trailing
// white space aside) among the entries of env and account ("" for a builder
// authorization, prepared by no session), unless it was sent already.
func Find(entries []journal.Entry, kind, env, account string, file []byte) (Prepared, error) {
	file = bytes.TrimRight(file, " \t\r\n")
	var found *journal.Entry
	for i, e := range entries {
		if e.Kind == journal.KindPrepared && e.Prepared.Kind == kind && e.Env == env && exchange.SameAccountID(e.AccountID, account) {
			if d, m, _ := e.Typed(); bytes.Equal(signer.TypedDataJSON(d, m), file) {
				found = &entries[i]
			}
		}
	}
	if found == nil {
		of := "this environment"
		if account != "" {
			of += " and account"
		}
		return Prepared{}, fmt.Errorf("this file is not a %s prepared on this machine for %s, or it was changed since: nothing was sent", nouns[kind].noun, of)
	}
	p := fromLine(*found)
	return p, p.notSent(entries)
}

// notSent refuses p (*SubmittedError) when a line carries its message sent:
// a builder authorization's sent line, or a withdrawal's intent unanswered
// or accepted (only refusals of every one leave its nonce unused).
func (p Prepared) notSent(entries []journal.Entry) error {
	mine := func(e journal.Entry) bool {
		return e.Env == p.Line.Env && exchange.SameAccountID(e.AccountID, p.Line.AccountID)
	}
	ids := map[string]bool{}
	for _, e := range entries {
		if d, m, ok := e.Typed(); ok && mine(e) && e.Kind != journal.KindPrepared && signer.Digest(d, m) == p.Digest() {
			if e.Kind == journal.KindBuilderSent {
				return &SubmittedError{Kind: p.Kind(), At: e.Time}
			}
			ids[e.QuoteID] = true
		}
	}
	var same []journal.Entry
	for _, e := range entries {
		if ids[e.QuoteID] && mine(e) {
			same = append(same, e)
		}
	}
	for _, r := range journal.FoldRecords(same) {
		if !r.Answered || r.State != "" {
			return &SubmittedError{Kind: p.Kind(), QuoteID: r.QuoteID}
		}
	}
	return nil
}

// Unsent is the check, read from j, that p was not sent yet: the guard of
// the line written right before its send (journal.AppendGuarded), so that
// of two submissions of one file at once, one is sent.
func (p Prepared) Unsent(j *journal.Journal) func() error {
	return func() error {
		entries, err := j.Entries()
		if err != nil {
			return exchange.UserError{Head: "Not sent", Text: "the journal " + safetext.Shown(j.Path()) + " could not be read to tell whether this prepared " +
				nouns[p.Kind()].noun + " was sent already (" + err.Error() + ")", Cause: err}
		}
		return p.notSent(entries)
	}
}

// Limits bound a prepared intent's expiration at submission: still valid
// Margin from now, and valid no longer than Life after now or after it was
// prepared.
type Limits struct{ Margin, Life time.Duration }

// Check holds a prepared intent and its signature made offline to what may
// be sent: the clocks agree (SigningNow, whose time it returns), the
// expiration is within lim, the domain and the service the line was
// prepared for are this environment's (a line of an earlier version names
// no service), and the signature recovers to the expected signer over the digest computed here
// (signer.Sign). Nothing is sent.
func (p Prepared) Check(ctx context.Context, c *exchange.Client, sig [65]byte, lim Limits) (signer.Signature, time.Time, error) {
	now, err := c.SigningNow(ctx)
	if err != nil {
		return signer.Signature{}, now, err
	}
	k, exp, life := nouns[p.Kind()], p.Expiration(), lim.Life.String()
	if day := 24 * time.Hour; lim.Life%day == 0 {
		life = fmt.Sprint(int64(lim.Life/day), " days")
	}
	refusal := ""
	switch {
	case !exp.After(now.Add(lim.Margin)):
		refusal = "expired at " + exp.UTC().Format(time.RFC3339) + ": nothing was sent; " + k.again
	case exp.After(now.Add(lim.Life)) || exp.After(p.Line.Time.Add(lim.Life)):
		refusal = "stays valid until " + exp.UTC().Format(time.RFC3339) + ", more than " + life + " after it was prepared: nothing was sent; check your clock and prepare it again"
	case p.Domain != c.Env().Domain():
		refusal = "was made for another EIP-712 domain than this environment's: nothing was sent"
	case p.Line.Service != nil && !c.Env().Reaches(*p.Line.Service):
		// Its name and domain match; its host does not: the signature
		// would go to a service that never had it, as a resume refuses.
		refusal = "was made for " + p.Line.Service.String() + ", but this environment reaches " + c.Env().Service().String() + ": nothing was sent; " + k.again + " where it is to be sent"
	}
	if refusal != "" {
		return signer.Signature{}, now, exchange.UserError{Text: "The prepared " + k.noun + " " + refusal}
	}
	checked, err := signer.Sign(ctx, signer.Presigned(p.Signer, sig), p.Domain, p.Message)
	if err != nil {
		return signer.Signature{}, now, exchange.SignFailure(err)
	}
	return checked, now, nil
}
