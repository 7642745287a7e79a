package service

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"svcwallet/signer"
)

// WithdrawTimeout covers every retry of one withdraw (D10).
const WithdrawTimeout = 2 * time.Minute

// WithdrawalChoice is what the user has chosen for a withdrawal so far;
// each step of the form adds to it. Amount and FeeCap are parsed once, by
// CheckDestination, and travel as decimals from there to the Transfer.
type WithdrawalChoice struct {
	Info      WithdrawalInfo
	TokenIn   string
	Route     WithdrawalRoute
	TokenOut  string
	ToAddress string
	Amount    decimal.Decimal
	FeeCap    decimal.NullDecimal // not Valid: no cap
}

// CheckDestination checks the destination form as typed and returns the
// choice with the destination, the amount and the fee cap filled in. The
// error is written for the user.
func (c WithdrawalChoice) CheckDestination(toAddress, amount, feeCap string) (WithdrawalChoice, error) {
	c.ToAddress = strings.TrimSpace(toAddress)
	if c.ToAddress == "" {
		return c, errors.New("enter the destination address")
	}
	if err := ValidateAddress(c.Route.ChainType, c.ToAddress); err != nil {
		return c, err
	}
	a, err := ParseAmount(strings.TrimSpace(amount))
	if err != nil {
		return c, err
	}
	c.Amount, c.FeeCap = a, decimal.NullDecimal{}
	if s := strings.TrimSpace(feeCap); s != "" {
		fc, err := decimal.NewFromString(s)
		if err != nil || fc.IsNegative() {
			return c, errors.New("fee cap must be a plain decimal such as 2.5, or empty for none")
		}
		c.FeeCap = decimal.NewNullDecimal(fc)
	}
	return c, nil
}

// QuoteRequest is the quote to ask for this choice.
func (c WithdrawalChoice) QuoteRequest() QuoteRequest {
	return QuoteRequest{ToAddress: c.ToAddress, Chain: c.Route.Chain, TokenIn: c.TokenIn, TokenOut: c.TokenOut, Amount: c.Amount.String()}
}

// QuoteRefusal says why quote q cannot be signed for this choice, or "":
// it must pay exactly the amount asked for (what is signed is the pay
// amount), and both its declared fee and what the user loses (Cost) must
// be within the cap: a quote can declare no fee and pay out almost nothing.
func (c WithdrawalChoice) QuoteRefusal(q Quote) string {
	switch {
	case !q.PayAmount.Equal(c.Amount):
		return fmt.Sprintf("the quote asks for %s %s, not the %s you entered", q.PayAmount, c.TokenIn, c.Amount)
	case c.FeeCap.Valid && q.Fee.GreaterThan(c.FeeCap.Decimal):
		return fmt.Sprintf("the fee %s %s is above your cap of %s %s", q.Fee, c.TokenIn, c.FeeCap.Decimal, c.TokenIn)
	case c.FeeCap.Valid && q.Cost().GreaterThan(c.FeeCap.Decimal):
		return fmt.Sprintf("you would lose %s %s (pay %s, receive %s), above your fee cap of %s %s",
			q.Cost(), c.TokenIn, q.PayAmount, q.ReceiveAmount, c.FeeCap.Decimal, c.TokenIn)
	}
	return ""
}

// Cost is what the user loses to the withdrawal: the pay amount less the
// receive amount, both stablecoins worth one USD (the fee and any spread).
func (q Quote) Cost() decimal.Decimal { return q.PayAmount.Sub(q.ReceiveAmount) }

// PricedQuote is a quote with the difference between the service's clock
// and ours, measured when it was asked: its countdown runs on the
// service's clock.
type PricedQuote struct {
	Quote
	Offset time.Duration // service clock − local clock
}

// Remaining is the quote's time left at localNow, by the service's clock.
func (p PricedQuote) Remaining(localNow time.Time) time.Duration {
	if p.QuoteID == "" {
		return 0
	}
	return p.ExpiresAt.Sub(localNow.Add(p.Offset))
}

// Order is one withdrawal ready to sign: the user's choice, its quote, and
// the Transfer built from them with this nonce and expiration.
type Order struct {
	Choice   WithdrawalChoice
	Quote    Quote
	Domain   signer.Domain
	Transfer signer.Transfer
}

// NewOrder builds the Transfer for a quote from what the user chose and
// the session's funding account: from the funding account to the bridge's
// funding address, the quote's pay amount in USDT, expiring TransferMargin
// after the quote. localNow is read on our clock, corrected by the
// quote's Offset. The error is written for the user.
func NewOrder(c WithdrawalChoice, p PricedQuote, fundingAccount string, d signer.Domain, nonce uint32, localNow time.Time) (Order, error) {
	o := Order{Choice: c, Quote: p.Quote, Domain: d}
	raw, err := RawUnits(p.PayAmount)
	exp, expErr := TransferExpiration(p.Quote, localNow.Add(p.Offset))
	refusal := c.QuoteRefusal(p.Quote)
	switch {
	case expErr != nil:
		return o, UserError{Text: expErr.Error(), Cause: expErr}
	case err != nil:
		return o, UserError{Text: "The quote's pay amount cannot be signed: " + err.Error(), Cause: err}
	case c.TokenIn != TokenUSDT:
		return o, UserError{Text: "Only USDT withdrawals can be signed: the currency id of " + c.TokenIn + " is not published"}
	case !common.IsHexAddress(fundingAccount) || !common.IsHexAddress(c.Info.FundingAddress):
		return o, UserError{Text: "The funding or bridge address is not an EVM address: log in again"}
	case refusal != "":
		return o, UserError{Text: "This quote cannot be signed: " + refusal}
	}
	o.Transfer = signer.Transfer{
		FromAccount:   common.HexToAddress(fundingAccount),
		ToAccount:     common.HexToAddress(c.Info.FundingAddress),
		TokenCurrency: signer.USDTCurrency,
		NumTokens:     raw,
		Nonce:         nonce,
		Expiration:    exp.UnixNano(),
	}
	return o, nil
}

// Intent is what the journal keeps of what the user asked for.
func (o Order) Intent() Intent {
	return Intent{ToAddress: o.Choice.ToAddress, Chain: o.Choice.Route.Chain, TokenIn: o.Choice.TokenIn, TokenOut: o.Choice.TokenOut,
		PayAmount: o.Quote.PayAmount, ReceiveAmount: o.Quote.ReceiveAmount, ExpiresAt: o.Quote.ExpiresAt}
}

// Withdrawer is the one path a withdrawal's money takes, for the console
// and any command: sign, journal the intent with the whole typed message
// (fsynced, D11), send with the retries of D10, journal the answer; and
// the re-send of a journaled request that never got one.
type Withdrawer struct {
	Client  *Client
	Journal *Journal // nil journals nothing
	Now     func() time.Time
	// BridgePins is where bridge funding addresses trusted on first use are
	// recorded (BridgePinsPath); "" records none.
	BridgePins string
}

// Sent is the outcome of a withdraw request.
type Sent struct {
	Accepted WithdrawAccepted
	Err      error
	// Lost is the journaled request whose outcome is unknown (no answer
	// after every retry); it must be re-sent identically, never signed
	// again. Nil otherwise.
	Lost *JournalRecord
}

// Execute signs the order with the key load returns, journals the intent,
// sends it and journals the answer. Nothing is signed when the clocks
// disagree (SigningNow) or the Transfer's expiration is out of bounds for
// the time SigningNow returns; nothing is sent when its toAccount is not
// the pinned or recorded bridge address (a first one is recorded once
// signed, RecordBridge) or when the intent cannot be journaled.
func (w Withdrawer) Execute(ctx context.Context, o Order, load func() (signer.Key, error)) Sent {
	now, err := w.Client.SigningNow(ctx)
	if err != nil {
		return Sent{Err: err}
	}
	if err := CheckTransferExpiration(time.Unix(0, o.Transfer.Expiration), now); err != nil {
		return Sent{Err: UserError{Text: err.Error(), Cause: err}}
	}
	k, err := load()
	if err != nil {
		return Sent{Err: err}
	}
	sig, err := signer.Sign(k, o.Domain, o.Transfer)
	if err != nil {
		return Sent{Err: UserError{Text: "Signing failed: " + err.Error(), Cause: err}}
	}
	// The signature exists now and nothing has left: the bridge address is
	// checked again and, the first time, recorded; a refusal drops it.
	if err := RecordBridge(w.Client.Env(), w.BridgePins, o.Transfer.ToAccount.Hex(), now); err != nil {
		return Sent{Err: err}
	}
	req := WithdrawRequest{QuoteID: o.Quote.QuoteID, Signature: NewWithdrawSignature(sig)}
	intent := w.entry(JournalIntent, req.QuoteID)
	in := o.Intent()
	intent.Request, intent.Intent, intent.Signed = &req, &in, NewSignedMessage(o.Domain, o.Transfer)
	if err := w.append(intent); err != nil {
		return Sent{Err: w.journalStop(err)}
	}
	acc, err := w.Client.Withdraw(ctx, req)
	switch {
	case err == nil:
		w.answered(w.entry(JournalAccepted, req.QuoteID))
	case OutcomeUnknown(err):
		return Sent{Err: err, Lost: &JournalRecord{QuoteID: req.QuoteID, Env: intent.Env, AccountID: intent.AccountID,
			Request: req, Intent: in, Started: intent.Time}}
	default:
		refused := w.entry(JournalRejected, req.QuoteID)
		refused.Error = Explain(err).Error()
		w.answered(refused)
	}
	return Sent{Accepted: acc, Err: err}
}

// Resent is the outcome of re-sending a journaled request.
type Resent struct {
	Accepted WithdrawAccepted
	Err      error
	Lost     bool // no answer after every retry: it may or may not have arrived
	// Refused now: since the first send got no answer, this does not prove
	// the request never ran; the status decides.
	Refused bool
}

// Resend re-sends a journaled request byte for byte (same signature and
// nonce, so it cannot pay twice: D10) and journals an acceptance.
func (w Withdrawer) Resend(ctx context.Context, req WithdrawRequest) Resent {
	acc, err := w.Client.Withdraw(ctx, req)
	switch {
	case err == nil:
		w.answered(w.entry(JournalAccepted, req.QuoteID))
		return Resent{Accepted: acc}
	case OutcomeUnknown(err):
		return Resent{Err: err, Lost: true}
	}
	return Resent{Err: err, Refused: true}
}

// JournalState journals a state a follower learned for an own withdrawal
// (FollowStep.JournalState), unless the journal holds it already
// (Journal.AppendState): the one write of every follower.
func (w Withdrawer) JournalState(quoteID string, wd Withdrawal) error {
	if w.Journal == nil {
		return nil
	}
	e := w.entry(JournalState, quoteID)
	e.State, e.TxHash = wd.State, wd.WithdrawTxHash
	return w.Journal.AppendState(e)
}

// JournalNeverHappened journals why a resumed withdrawal never happened.
func (w Withdrawer) JournalNeverHappened(quoteID, why string) error {
	e := w.entry(JournalRejected, quoteID)
	e.Error = why
	return w.append(e)
}

func (w Withdrawer) entry(kind, quoteID string) JournalEntry {
	s, _ := w.Client.Session()
	return JournalEntry{Time: w.Now(), Kind: kind, Env: w.Client.Env().Name, AccountID: s.AccountID, QuoteID: quoteID}
}

// journalStop says why a withdrawal stopped before its request left: its
// intent could not be journaled, so a lost answer could not be resumed.
func (w Withdrawer) journalStop(err error) error {
	fix := "free disk space, and make sure the journal is a file of yours (not a link or a directory) in a directory only you can write"
	if errors.Is(err, ErrJournalLine) {
		fix = "this withdrawal cannot be recorded as it is: check the environment's name and domain_name in the config, and tell support if it persists"
	}
	return UserError{Text: "Not sent: the withdrawal journal " + w.Journal.Path() + " could not record it (" + err.Error() + "). Nothing left svcwallet; " + fix + ", then try again.", Cause: err}
}

func (w Withdrawer) append(e JournalEntry) error {
	if w.Journal == nil {
		return nil
	}
	return w.Journal.Append(e)
}

// answered journals an answer already in hand: a failed write only costs
// the history this line, so it does not turn the answer into a failure.
func (w Withdrawer) answered(e JournalEntry) { _ = w.append(e) }

// ResumeStep is what to do first with a journaled withdrawal.
type ResumeStep int

const (
	// ResumeFollow: it was answered; follow its status.
	ResumeFollow ResumeStep = iota
	// ResumeNeverHappened: the service refused it; nothing to follow.
	ResumeNeverHappened
	// ResumeResend: unanswered and its quote still valid: re-send it.
	ResumeResend
	// ResumeCheck: unanswered and its quote expired: ask whether it arrived.
	ResumeCheck
)

// PlanResume decides how to take up a journaled withdrawal at now.
func PlanResume(rec JournalRecord, now time.Time) ResumeStep {
	switch {
	case rec.Answered && rec.State == "":
		return ResumeNeverHappened
	case rec.Answered:
		return ResumeFollow
	case now.Before(rec.Intent.ExpiresAt):
		return ResumeResend
	}
	return ResumeCheck
}

// NeverArrived reports, for an unanswered request being checked
// (ResumeCheck, or a re-send the service refused), whether the status
// answer says the request never arrived: the service does not know the
// quote, or it is still CREATED, so nothing was paid. Otherwise it did
// arrive, and is followed.
func NeverArrived(w Withdrawal, err error) bool {
	return errors.Is(err, ErrNotFound) || err == nil && w.State == StateCreated
}

// ResendRefusal words a refused re-send for the record, should the check
// then find the request never arrived: an expired quote is NeverPaid.
func ResendRefusal(err error) string {
	if errors.Is(err, ErrQuoteExpired) {
		return NeverPaid
	}
	return Explain(err).Error()
}

// NeverPaid is journaled for an unanswered request whose quote expired and
// which the service never executed.
const NeverPaid = "quote expired before the request was confirmed; nothing was paid"
