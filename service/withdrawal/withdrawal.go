// Package withdrawal is the one withdrawal workflow (SPEC.md §3), for the
// console and the command line: the user's choice and its checks, the quote
// check and the Transfer to sign (Order), signing, journaling and sending
// with safe retries (Withdrawer), trust in the bridge's funding address,
// resumption of an unanswered request, and the review sentence.
package withdrawal

import (
	"context"
	"errors"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/signer"
)

// PricedQuote is a quote with the difference between the service's clock
// and ours, measured when it was asked: its countdown runs on the
// service's clock.
type PricedQuote struct {
	exchange.Quote
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
	Choice   Choice
	Quote    exchange.Quote
	Domain   signer.Domain
	Transfer signer.Transfer
	// LossAnswered is the loss (Loss.Lost) the person said a second yes to
	// (AnswerLoss); without it, or above it, a severe loss is neither
	// signed nor prepared, whichever face forgot to ask (lossRefusal).
	LossAnswered decimal.NullDecimal
	// feeUnknown: a resumed order (Resumed), whose quote's fee the
	// journal does not hold.
	feeUnknown bool
}

// NewOrder builds the Transfer for a quote from what the user chose and
// the session's funding account: from the funding account to the bridge's
// funding address, the quote's pay amount in USDT, expiring TransferMargin
// after the quote. localNow is read on our clock, corrected by the
// quote's Offset. The error is written for the user.
func NewOrder(c Choice, p PricedQuote, fundingAccount string, d signer.Domain, nonce uint32, localNow time.Time) (Order, error) {
	o := Order{Choice: c, Quote: p.Quote, Domain: d}
	raw, err := exchange.RawUnits(p.PayAmount)
	exp, expErr := TransferExpiration(p.Quote, localNow.Add(p.Offset))
	refusal := c.QuoteRefusal(p.Quote)
	switch {
	case expErr != nil:
		return o, exchange.UserError{Text: expErr.Error(), Cause: expErr}
	case err != nil:
		return o, exchange.UserError{Text: "The quote's pay amount cannot be signed: " + err.Error(), Cause: err}
	case c.TokenIn != exchange.TokenUSDT:
		return o, exchange.UserError{Text: "Only USDT withdrawals can be signed: the currency id of " + c.TokenIn + " is not published"}
	case !common.IsHexAddress(fundingAccount) || !common.IsHexAddress(c.Info.FundingAddress):
		return o, exchange.UserError{Text: "The funding or bridge address is not an EVM address: log in again"}
	case UnusableBridge(c.Info.FundingAddress, fundingAccount) != "":
		return o, exchange.UserError{Text: "The service gave bridge funding address " + c.Info.FundingAddress + ", which " +
			UnusableBridge(c.Info.FundingAddress, fundingAccount) + ": nothing was signed; tell the exchange"}
	case refusal != "":
		return o, exchange.UserError{Text: "This quote cannot be signed: " + refusal}
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
func (o Order) Intent() journal.Intent {
	return journal.Intent{ToAddress: o.Choice.ToAddress, Chain: o.Choice.Route.Chain, TokenIn: o.Choice.TokenIn, TokenOut: o.Choice.TokenOut,
		PayAmount: o.Quote.PayAmount, ReceiveAmount: o.Quote.ReceiveAmount, ExpiresAt: o.Quote.ExpiresAt}
}

// Sent is the outcome of a withdraw request.
type Sent struct {
	Accepted exchange.WithdrawAccepted
	Err      error
	// Lost is the journaled request whose outcome is unknown (no answer
	// after every retry); it must be re-sent identically, never signed
	// again. Nil otherwise.
	Lost *journal.Record
	// Order is the order as it was sent: its Quote is a fresh one when
	// Requoted. Zero when nothing was sent.
	Order Order
	// Unrecorded says what of the service's answer (Accepted, or a refusal
	// in Err) could not be written down; nil when all was.
	Unrecorded *UnrecordedError
	// Requoted: the order's quote expired while the Transfer was being
	// signed, and a fresh quote paying exactly the signed amount within
	// the fee cap carried the same signature (RequoteNote).
	Requoted bool
	// Signed: a signature of its Transfer was made (Execute) or given
	// (Submit) before it ended, whatever Err says of the request: a face
	// never says nothing was signed then.
	Signed bool
}

// Answered: the service answered the send, though not whether it paid (a
// conflict over its quote, exchange.QuoteUsed, or a 3xx or 4xx the
// interface gives no meaning, exchange.UnnamedRefusal), so it may have
// been paid: an answer, never "no answer", though Lost holds it to settle
// all the same. Err says it.
func (s Sent) Answered() bool {
	return s.Lost != nil && (exchange.QuoteUsed(s.Err) || exchange.UnnamedRefusal(s.Err))
}

// Execute signs the order with the key load returns, journals the intent,
// sends it and journals the answer. Nothing is signed of a loss no face
// recorded as answered (lossRefusal), nor by a Withdrawer made
// for a dry run or without a journal (ErrNoJournal), nor when an identical
// withdrawal of this account got no answer and may have been paid
// (*UnansweredError, unless AllowRepeat: it must be resumed first), or
// the journal cannot be read to tell; nor when the clocks
// disagree (SigningNow) or the Transfer's expiration is out of bounds for
// the time SigningNow returns; nothing is sent when the signature does not
// recover to the key's address (signer.Sign), when its toAccount is not
// the pinned or recorded bridge address (a first one is recorded once the
// service accepts it, RecordBridge), when the intent cannot be journaled,
// or when the repeat check, made again under the journal's lock with the
// intent's line, finds an identical withdrawal made meanwhile by another
// run (*OvertakenError) or one unanswered.
//
// A key that waits for a person (clef, a device: signer.Awaiting) may
// take as long as ctx allows; cancelling ctx then stops it with nothing
// sent. If the quote expired meanwhile, by the service's clock before the
// send or by its answer to it, a fresh quote for exactly the signed amount
// within the fee cap carries the same signature (Requote): the signature
// pays numTokens, whatever the quote. ctx ended once the signature came
// (ctrl+c, SIGTERM, a closed terminal) still sends nothing, until an
// intent is journaled (stoppedBeforeSending, with its line, for the fresh
// quote's send too); from then the request may leave, and ctx no longer
// cancels it (its answer must be journaled); exchange.WithdrawTimeout
// bounds it. Sent.Order is the order as sent: follow its quote id.
func (w Withdrawer) Execute(ctx context.Context, o Order, load func() (signer.Key, error)) Sent {
	if err := o.lossRefusal(); err != nil {
		return Sent{Err: err}
	}
	if err := w.maySign(); err != nil {
		return Sent{Err: err}
	}
	// Early, so nothing is signed needlessly; the checks that decide are
	// made again with the intent's line (send).
	if err := w.signedFor(o); err != nil {
		return Sent{Err: err}
	}
	before, err := w.checkRepeat(o)
	if err != nil {
		return Sent{Err: err}
	}
	now, err := w.client.SigningNow(ctx)
	if err != nil {
		return Sent{Err: err}
	}
	if err := CheckTransferExpiration(time.Unix(0, o.Transfer.Expiration), now); err != nil {
		return Sent{Err: exchange.UserError{Text: err.Error(), Cause: err}}
	}
	k, err := load()
	if err != nil {
		return Sent{Err: err}
	}
	sig, err := signer.Sign(ctx, k, o.Domain, o.Transfer)
	if err != nil {
		return Sent{Err: exchange.SignFailure(err)}
	}
	sx, cancel := context.WithTimeout(context.WithoutCancel(ctx), exchange.WithdrawTimeout)
	defer cancel()
	waited, requoted := signer.Awaiting(k) != "", false
	if waited {
		if o, requoted, err = w.Requote(sx, o, false, ""); err != nil {
			return Sent{Err: err, Signed: true}
		}
	}
	sent := w.sendSigned(sx, o, sig, now, waited, requoted, before, stoppedBeforeSending(ctx, false, nil))
	sent.Signed = true
	return sent
}

// stoppedBeforeSending is the guard of each send of a signed withdrawal
// (send checks it under the journal's lock, with the intent's line): ctx
// ended (ctrl+c, SIGTERM, a closed terminal's SIGHUP) after the signature
// came, so nothing leaves and the person's last word was to stop, even
// while the journal's lock or a fresh quote was waited for. Its error is
// ErrStoppedOnceSigned and ctx's, worded by stopWords; then guard, when
// given, decides. prepared: the signature is a prepared Transfer's (Submit).
func stoppedBeforeSending(ctx context.Context, prepared bool, guard func() error) func(Order, string) error {
	return func(o Order, refused string) error {
		if err := ctx.Err(); err != nil {
			return exchange.Worded(errors.Join(ErrStoppedOnceSigned, err), stopWords(o, prepared, refused))
		}
		if guard != nil {
			return guard()
		}
		return nil
	}
}

// stopWords say a withdrawal of o stopped once signed, before its request
// left: refused is the quote a first request of this run was refused for
// as expired ("" when none left), so nothing was paid rather than nothing
// sent; a prepared Transfer's signature stays on disk, to submit again.
func stopWords(o Order, prepared bool, refused string) string {
	said := "Stopped once signed, before the request left: nothing was sent"
	if refused != "" {
		said = "Stopped once signed, after quote " + refused + " was refused as expired and before the request on the fresh quote " +
			o.Quote.QuoteID + " left: nothing was paid"
	}
	if prepared {
		return said + "; the prepared Transfer was not used and may be submitted again until its signature expires at " +
			time.Unix(0, o.Transfer.Expiration).UTC().Format(time.RFC3339)
	}
	return said + ", and the signature expires unused; start the withdrawal again to send it"
}

// ErrStoppedOnceSigned is in the error of a withdrawal stopped after its
// signature came and before its request left (stoppedBeforeSending), so a
// face says it was signed, not that nothing was.
var ErrStoppedOnceSigned = errors.New("stopped once signed, before the request left")

// sendSigned sends o with its signature sig, made at now: it checks the
// bridge address again, journals and sends, and when the signature may
// have outlived its quote (mayRequote) and the service refuses the quote
// as expired, carries it on a fresh one (Requote) unless one did already
// (requoted). before is the early repeat check's finding; stop, checked
// with the repeat check under the journal's lock (send), is told the
// order and the quote a first request was refused for ("" before one).
func (w Withdrawer) sendSigned(sx context.Context, o Order, sig signer.Signature, now time.Time, mayRequote, requoted bool, before Repeat, stop func(Order, string) error) Sent {
	// The signature exists now and nothing has left: an address recorded
	// meanwhile (another console) still stops it; a refusal drops it.
	if _, err := CheckBridge(w.client.Env(), w.bridgePins, o.Transfer.ToAccount.Hex(), now); err != nil {
		if changed, ok := errors.AsType[*BridgeChangedError](err); ok {
			changed.Signed = true
		}
		return Sent{Err: err}
	}
	var earlier *UnrecordedError // a refusal of the expired quote left unrecorded
	refused := ""
	for {
		sent := w.send(sx, o, sig, before, func() error { return stop(o, refused) })
		sent.Requoted = requoted
		if sent.Unrecorded == nil {
			sent.Unrecorded = earlier
		}
		// Only a clean refusal proves the signature unused: after an
		// attempt without an answer, a later "quote expired" may follow a
		// first attempt that paid (exchange.OutcomeUnknown), so that one is
		// resumed as lost, never carried on a fresh quote.
		if !mayRequote || requoted || sent.Lost != nil || !errors.Is(sent.Err, exchange.ErrQuoteExpired) {
			return sent
		}
		// Refused for good, nothing paid: the signature is still unused.
		earlier, refused = sent.Unrecorded, o.Quote.QuoteID
		var err error
		if o, requoted, err = w.Requote(sx, o, true, refused); err != nil {
			return Sent{Err: err, Unrecorded: earlier} // the refusal's, said still
		}
	}
}

// send journals the intent of o signed with sig, sends it and journals
// the answer. The repeat check (checkAgain, against before) and guard are
// made with the intent's line, under the journal's lock: of two runs of
// the same withdrawal that both passed their early check (a second
// process, a console and a script, each awaiting its signature), the
// second to get there finds the first's intent, and sends nothing.
func (w Withdrawer) send(ctx context.Context, o Order, sig signer.Signature, before Repeat, guard func() error) Sent {
	req := exchange.WithdrawRequest{QuoteID: o.Quote.QuoteID, Signature: exchange.NewWithdrawSignature(sig)}
	// Sent and answered as the account journaled with the intent alone.
	as, _ := w.client.Session()
	intent := w.entryAs(journal.KindIntent, req.QuoteID, as.AccountID)
	in := o.Intent()
	intent.Request, intent.Intent, intent.Domain, intent.Transfer = &req, &in, &o.Domain, &o.Transfer
	if err := w.appendIntent(o, intent, before, guard); err != nil {
		return Sent{Err: err}
	}
	acc, err := w.client.Withdraw(exchange.AsAccount(ctx, as), req)
	sent := Sent{Accepted: acc, Err: err, Order: o}
	switch {
	case err == nil:
		// The answer stands whatever is written; what could not be is
		// said (Unrecorded), never dropped.
		journalErr := w.append(w.accepted(req.QuoteID, as.AccountID, acc))
		// Trusted on first use once it took a withdrawal.
		pinErr := RecordBridge(w.client.Env(), w.bridgePins, o.Transfer.ToAccount.Hex(), w.now())
		sent.Unrecorded = unrecorded(req.QuoteID, journalErr, pinErr, o.Transfer.ToAccount.Hex())
	case exchange.NotSent(err):
		// Nothing left: the service never saw it, so it is no refusal.
		sent.Err = notSent(err)
		e := w.entryAs(journal.KindRejected, req.QuoteID, as.AccountID)
		e.Error, e.NotSent = exchange.Explain(err).Error(), true
		sent.Unrecorded = unrecorded(req.QuoteID, w.append(e), nil, "")
	case exchange.OutcomeUnknown(err), exchange.QuoteUsed(err):
		// "Already executed with another signature" (or a bare 409) says
		// the quote may have been paid, never that nothing was: the status
		// tells (Settle).
		sent.Err = conflictWords(err, req.QuoteID)
		sent.Lost = &journal.Record{QuoteID: req.QuoteID, Env: intent.Env, AccountID: intent.AccountID,
			Request: req, Intent: in, Started: intent.Time}
	default:
		if NonceUsed(err) {
			// Refused, so this quote never paid; its Transfer most likely did.
			sent.Err = nonceUsedWords(err, req.QuoteID)
		}
		refused := w.entryAs(journal.KindRejected, req.QuoteID, as.AccountID)
		refused.Error, refused.QuoteExpired = exchange.Explain(sent.Err).Error(), errors.Is(err, exchange.ErrQuoteExpired)
		sent.Unrecorded = unrecorded(req.QuoteID, w.append(refused), nil, "")
	}
	return sent
}

// conflictWords words a withdraw of quoteID answered 409 (exchange.QuoteUsed)
// or with a 3xx or 4xx the interface gives no meaning (exchange.UnnamedRefusal)
// as the unknown outcome it is, the fact alone: each face says its own next
// step after it. Explain's words would tell a bare status as a refusal, and
// 9108's add a next step of their own.
func conflictWords(err error, quoteID string) error {
	ae, ok := errors.AsType[*exchange.APIError](err)
	var how string
	switch {
	case !ok:
		return err
	case exchange.UnnamedRefusal(err):
		how = "with " + ae.StatusWords() + ", a status that does not say whether it was taken"
	case errors.Is(err, exchange.CodeQuoteUsed):
		how = "that its quote was already executed with another signature"
	case exchange.QuoteUsed(err):
		how = "with " + ae.StatusWords() + ", a conflict over this quote"
	default:
		return err
	}
	return exchange.Worded(err, "The service answered withdrawal "+quoteID+" "+how+", so it may have been paid")
}

// notSent words a withdraw request that never left this machine
// (exchange.NotSent): nothing was paid, and trying again is safe.
func notSent(err error) error {
	return exchange.UserError{Head: "Not sent", Text: strings.TrimSuffix(exchange.Explain(err).Error(), ".") + ". Nothing left svcwallet, so nothing was paid; it is safe to try again.", Cause: err}
}

// JournalState journals a state a follower learned for an own withdrawal
// (follow.Step.JournalState), unless the journal holds it already
// (Journal.AppendState): the one write of every follower. It is written
// only as the account that made it: learned of one account's and written
// once a login as another landed (the board, the status screen or
// History's check, behind a login), it showed in the other's History as
// its own.
func (w Withdrawer) JournalState(quoteID string, wd exchange.Withdrawal) error {
	if w.journal == nil {
		return nil
	}
	if wd.State == "" || wd.State == exchange.StateCreated {
		return w.journalNeverPaid(quoteID, wd)
	}
	e := w.entry(journal.KindState, quoteID)
	recs, err := w.journal.RecordsOf(journal.OwnerOf(w.client.Env(), e.AccountID), quoteID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(recs, func(r journal.Record) bool { return r.Made }) {
		return nil
	}
	e.State, e.TxHash, e.TxID = wd.State, wd.WithdrawTxHash, wd.TxID
	return w.journal.AppendState(e)
}

// accepted is the journal's line of the service's 202, with its transfer
// id, by which the withdrawal is found again.
func (w Withdrawer) accepted(quoteID, account string, acc exchange.WithdrawAccepted) journal.Entry {
	e := w.entryAs(journal.KindAccepted, quoteID, account)
	e.TxID = acc.TxID
	return e
}

// entry is a journal line of this session's withdrawal quoteID (entryAs).
func (w Withdrawer) entry(kind, quoteID string) journal.Entry {
	s, _ := w.client.Session()
	return w.entryAs(kind, quoteID, s.AccountID)
}

// entryAs is a journal line of account's withdrawal quoteID, naming the
// service it is written for: an answer is journaled as the account its
// request went as (exchange.AsAccount), whichever session the client holds
// once it came.
func (w Withdrawer) entryAs(kind, quoteID, account string) journal.Entry {
	env := w.client.Env()
	return journal.Entry{Time: w.now(), Kind: kind, Env: env.Name, AccountID: account, QuoteID: quoteID, Service: new(env.Service())}
}

// owner is whose withdrawals this session's are (journal.Owner): its
// account on this service.
func (w Withdrawer) owner() journal.Owner { return journal.SessionOwner(w.client) }

// journalStop says why a withdrawal stopped before its request left: its
// intent could not be journaled, so a lost answer could not be resumed.
func (w Withdrawer) journalStop(err error) error {
	return w.journalProblem("could not record it", err)
}

// journalProblem says why a withdrawal stopped before anything left: the
// journal failed as what says.
func (w Withdrawer) journalProblem(what string, err error) error {
	fix := "free disk space, and make sure the journal is a file of yours (not a link or a directory) in a directory only you can write"
	if errors.Is(err, journal.ErrLine) {
		fix = "this withdrawal cannot be recorded as it is: check the environment's name and domain_name in the config, and tell support if it persists"
	}
	return exchange.UserError{Head: "Not sent", Text: "the withdrawal journal " + safetext.Shown(w.journal.Path()) + " " + what + " (" + err.Error() + "). Nothing left svcwallet; " + fix + ", then try again.", Cause: err}
}

// appendIntent journals a withdrawal's intent once guard, the session's
// account (signedFor) and the repeat check pass, decided under the journal's lock
// (journal.AppendGuarded). Their refusal is returned as it is; a journal
// that cannot be locked or written stops the withdrawal (journalStop).
func (w Withdrawer) appendIntent(o Order, intent journal.Entry, before Repeat, guard func() error) error {
	if err := w.maySign(); err != nil {
		return err
	}
	var refused error
	err := w.journal.AppendGuarded(func() error {
		if guard != nil {
			refused = guard()
		}
		if refused == nil {
			refused = w.signedFor(o)
		}
		if refused == nil {
			refused = w.checkAgain(o, before)
		}
		return refused
	}, intent)
	switch {
	case refused != nil:
		return refused
	case err != nil:
		return w.journalStop(err)
	}
	return nil
}

func (w Withdrawer) append(e journal.Entry) error {
	if w.journal == nil {
		return nil
	}
	return w.journal.Append(e)
}
