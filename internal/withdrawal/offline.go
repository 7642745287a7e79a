package withdrawal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/journal"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// PreparedLife is how long a Transfer prepared for offline signing stays
// valid after it is written (D9): time to carry the file to a wallet,
// sign it and bring the signature back.
const PreparedLife = 30 * time.Minute

// Prepared is a Transfer this machine prepared for offline signing, as its
// journal keeps it: the order it was made from (whose quote will be
// replaced by a fresh one at submission), the address expected to sign it
// and when it was prepared.
type Prepared struct {
	Order  Order
	Signer common.Address
	At     time.Time
}

// TypedData is the file written for the wallet: the eth_signTypedData_v4
// JSON of the Transfer, and a newline.
func (p Prepared) TypedData() []byte {
	return append(signer.TypedDataJSON(p.Order.Domain, p.Order.Transfer), '\n')
}

// Prepare makes o's Transfer one to sign offline by signerAddr: it expires
// PreparedLife after now (SigningNow), and the journal keeps (fsynced)
// everything Submit needs, since the file holds only the typed data.
// Nothing is signed or sent; nothing is prepared when an identical
// withdrawal got no answer, as Execute refuses it. The error is written
// for the user.
func (w Withdrawer) Prepare(ctx context.Context, o Order, signerAddr common.Address) (Prepared, error) {
	if w.Journal == nil {
		return Prepared{}, errors.New("offline signing needs the withdrawal journal, where the prepared Transfer is kept")
	}
	if _, err := w.checkRepeat(o); err != nil {
		return Prepared{}, err
	}
	now, err := w.Client.SigningNow(ctx)
	if err != nil {
		return Prepared{}, err
	}
	o.Transfer.Expiration = now.Add(PreparedLife).UnixNano()
	e := w.entry(journal.KindPrepared, o.Quote.QuoteID)
	in := o.Intent()
	fee := o.Quote.Fee
	p := journal.Prepared{Kind: journal.PreparedWithdrawal, Signer: signerAddr, Fee: &fee}
	if o.Choice.FeeCap.Valid {
		// A cap finer than the token's units means the same as one cut to them.
		c := o.Choice.FeeCap.Decimal.Truncate(exchange.TokenDecimals)
		p.FeeCap, o.Choice.FeeCap = &c, decimal.NewNullDecimal(c)
	}
	e.Intent, e.Domain, e.Transfer, e.Prepared = &in, &o.Domain, &o.Transfer, &p
	if err := w.append(e); err != nil {
		return Prepared{}, exchange.UserError{Text: "Not prepared: the withdrawal journal " + w.Journal.Path() + " could not record it (" + err.Error() + ")", Cause: err}
	}
	return Prepared{Order: o, Signer: signerAddr, At: e.Time}, nil
}

// ErrNotPrepared is a file that is not the typed data of a Transfer this
// journal prepared for the environment and account.
var ErrNotPrepared = errors.New("this file is not a Transfer prepared on this machine for this environment and account, or it was changed since: nothing was sent")

// SubmittedError is a prepared Transfer whose signature was submitted
// already: it is that withdrawal, never another one. The command line
// adds how to follow it, with the environment it was run on.
type SubmittedError struct{ QuoteID string }

func (e *SubmittedError) Error() string {
	return "this prepared Transfer was submitted already, as withdrawal " + e.QuoteID + ": nothing was sent again"
}

// FindPrepared finds the prepared line whose typed data file is (trailing
// spaces and newlines aside) among the journal's entries of env and
// accountID, and refuses one submitted already (an intent with its
// Transfer exists, unless the service refused every such request, which
// left its nonce unused).
func FindPrepared(entries []journal.Entry, env, accountID string, file []byte) (Prepared, error) {
	file = bytes.TrimRight(file, " \t\r\n")
	var found *journal.Entry
	for i := range entries {
		e := &entries[i]
		if e.Kind == journal.KindPrepared && e.Prepared.Kind == journal.PreparedWithdrawal && e.Env == env && e.AccountID == accountID &&
			bytes.Equal(signer.TypedDataJSON(*e.Domain, *e.Transfer), file) {
			found = e
		}
	}
	if found == nil {
		return Prepared{}, ErrNotPrepared
	}
	if err := checkNotSubmitted(entries, env, accountID, *found.Transfer); err != nil {
		return Prepared{}, err
	}
	in, p := found.Intent, found.Prepared
	c := Choice{
		Info:    exchange.WithdrawalInfo{FundingAddress: found.Transfer.ToAccount.Hex()},
		TokenIn: in.TokenIn, TokenOut: in.TokenOut, ToAddress: in.ToAddress, Amount: in.PayAmount,
		Route: exchange.WithdrawalRoute{Chain: in.Chain, ChainType: exchange.ChainTypeOfChain(in.Chain)},
	}
	if p.FeeCap != nil {
		c.FeeCap = decimal.NewNullDecimal(*p.FeeCap)
	}
	q := exchange.Quote{QuoteID: found.QuoteID, PayAmount: in.PayAmount, ReceiveAmount: in.ReceiveAmount, Fee: *p.Fee, ExpiresAt: in.ExpiresAt}
	return Prepared{Order: Order{Choice: c, Quote: q, Domain: *found.Domain, Transfer: *found.Transfer}, Signer: p.Signer, At: found.Time}, nil
}

// checkNotSubmitted refuses a Transfer that entries (of env and accountID)
// show submitted already (*SubmittedError): an intent carrying it that is
// unanswered or was accepted. Only refusals leave its nonce unused.
func checkNotSubmitted(entries []journal.Entry, env, accountID string, t signer.Transfer) error {
	var same []journal.Entry
	ids := map[string]bool{}
	for _, e := range entries {
		if e.Kind == journal.KindIntent && e.Env == env && e.AccountID == accountID && e.Transfer != nil && *e.Transfer == t {
			ids[e.QuoteID] = true
		}
	}
	for _, e := range entries {
		if ids[e.QuoteID] && e.Env == env && e.AccountID == accountID {
			same = append(same, e)
		}
	}
	for _, r := range journal.FoldRecords(same) {
		if !r.Answered || r.State != "" {
			return &SubmittedError{QuoteID: r.QuoteID}
		}
	}
	return nil
}

// Submit finishes a prepared Transfer with the signature made offline,
// through the one path of Execute: the Transfer must not have expired (nor
// outlive PreparedLife), the signature must recover to the expected signer
// over the digest computed here (signer.Sign), and a fresh quote for
// exactly the signed amount within the recorded fee cap (Requote) carries
// it; then the bridge address is checked, the intent journaled and the
// request sent. Nothing is sent when any of that fails, nor when another
// identical withdrawal got no answer (as Execute), nor when this Transfer
// was submitted already (*SubmittedError): both are decided again under
// the journal's lock with the intent's line, so two submissions of one
// file at once send it once.
func (w Withdrawer) Submit(ctx context.Context, p Prepared, sig [65]byte) Sent {
	o := p.Order
	before, err := w.checkRepeat(o)
	if err != nil {
		return Sent{Err: err}
	}
	now, err := w.Client.SigningNow(ctx)
	if err != nil {
		return Sent{Err: err}
	}
	exp := time.Unix(0, o.Transfer.Expiration)
	s, _ := w.Client.Session()
	switch {
	case !exp.After(now.Add(RequoteMargin)):
		return Sent{Err: exchange.UserError{Text: fmt.Sprintf("The prepared Transfer expired at %s (a prepared Transfer is valid for %s): nothing was sent; prepare the withdrawal again", exp.UTC().Format(time.RFC3339), PreparedLife)}}
	case exp.After(now.Add(PreparedLife)) || exp.After(p.At.Add(PreparedLife)):
		return Sent{Err: exchange.UserError{Text: fmt.Sprintf("The prepared Transfer stays valid until %s, more than %s after it was prepared: nothing was sent; check your clock and prepare it again", exp.UTC().Format(time.RFC3339), PreparedLife)}}
	case o.Domain != w.Client.Env().Domain():
		return Sent{Err: exchange.UserError{Text: "The prepared Transfer was made for another EIP-712 domain than this environment's: nothing was sent"}}
	case !common.IsHexAddress(s.FundingAccountAddress) || common.HexToAddress(s.FundingAccountAddress) != o.Transfer.FromAccount:
		return Sent{Err: exchange.UserError{Text: "The prepared Transfer pays from another funding account than this session's: nothing was sent"}}
	}
	checked, err := signer.Sign(ctx, signer.Presigned(p.Signer, sig), o.Domain, o.Transfer)
	if err != nil {
		return Sent{Err: exchange.SignFailure(err)}
	}
	sx, cancel := context.WithTimeout(context.WithoutCancel(ctx), exchange.WithdrawTimeout)
	defer cancel()
	if o, _, err = w.Requote(sx, o, true); err != nil {
		return Sent{Err: err}
	}
	env, account := w.Client.Env().Name, s.AccountID
	notSubmitted := func() error {
		entries, err := w.Journal.Entries()
		if err != nil {
			return w.journalProblem("could not be read to tell whether this Transfer was submitted already", err)
		}
		return checkNotSubmitted(entries, env, account, o.Transfer)
	}
	sent := w.sendSigned(sx, o, checked, now, true, false, before, notSubmitted)
	sent.Requoted = true
	return sent
}
