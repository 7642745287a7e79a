package plain

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// A withdrawal's quote, review and signature, as the console's quote and
// review screens and `svcwallet withdraw` take them: the quote built into
// the Transfer (NewOrder, which refuses what QuoteRefusal refuses), the
// bridge address (CheckBridge) and the journal's repeats (Repeats) checked
// before the review, a typed y (and for a loss of most of the amount a
// typed yes: lossConfirmed), the quote's time left checked again before
// signing (PricedQuote.MayStillSign), then Withdrawer.Execute.

// afterQuote is what the user may do after a quote that was not signed.
var afterQuote = Options("Get a new quote", "Back home")

// quoteAndSign quotes ch, reviews and signs it. again: the user asked for
// a new quote. noKeySaid: no key here was said before the first question
// (sayNoKey), with its ways, which the review does not say again.
func (s *session) quoteAndSign(ch withdrawal.Choice, noKeySaid bool) (again bool, err error) {
	o, priced, ok, err := s.quote(ch)
	if err != nil || !ok {
		return s.whatNext(err)
	}
	w, err := s.withdrawer(false)
	if err != nil {
		return false, err
	}
	trust, ok, err := s.trustBridge(o)
	if err != nil || !ok {
		return false, err
	}
	rep, err := w.Repeats(ch)
	if err != nil {
		return false, s.journalStop(err, false)
	}
	if u := rep.Unanswered; u != nil {
		s.p.Say("Stopped: %s: resume it from History first, which sends the identical request (it cannot pay twice) or asks whether it arrived. Nothing was signed.",
			(&withdrawal.UnansweredError{Earlier: *u}).Fact())
		return false, nil
	}
	key := s.keyFor(o.Transfer.FromAccount)
	s.printReview(o, trust, key)
	if rep.Recent != nil {
		s.p.Say("Note: %s.", rep.RecentWords(s.Now()))
	}
	if rep.Failed != nil {
		s.p.Say("Note: %s.", rep.FailedWords(s.Now()))
	}
	switch {
	case key.err != nil && noKeySaid:
		s.p.Say("Not signed: no key here signs for this account; the ways to bring one are said before the route question. Nothing was signed or sent.")
		return false, nil
	case key.err != nil:
		s.p.Say("Not signed: %v. Nothing was signed or sent.", key.err)
		return false, nil
	}
	// After the key's check: the warning of a severe loss promises a
	// second question, which a review without a key never asks.
	s.warnLoss(o)
	s.sayWhere()
	if err := s.onTerminal("withdrawal", runnext.Withdraw(o.Choice)); err != nil {
		return false, err
	}
	yes, err := s.p.Confirm(func() string { return o.SignQuestion(s.target.Env) + " " + countdown(priced, s.Now()) })
	if err != nil {
		return false, err
	}
	if yes {
		yes, err = s.lossConfirmed(&o)
		if err != nil {
			return false, err
		}
	}
	if !yes {
		s.p.Say("Not signed: nothing was signed or sent.")
		return s.whatNext(nil)
	}
	k, err := key.load()
	if err != nil {
		return false, err
	}
	// The answer (and a passphrase) may come long after the review: a
	// quote that may no longer be signed (MayStillSign) is not. Its
	// replacement needs a review of its own.
	if !priced.MayStillSign(s.Now()) {
		s.p.Say("Quote %s expired while waiting for your answer (valid until %s by the service's clock): nothing was signed or sent.",
			o.Quote.QuoteID, o.Quote.ExpiresAt.UTC().Format("15:04:05 UTC"))
		return s.whatNext(nil)
	}
	if trust.Replaces != "" {
		if err := withdrawal.ConfirmBridge(s.target.Env, s.target.BridgePins(), trust.Replaces, trust.Address, s.Now()); err != nil {
			return false, fmt.Errorf("the new bridge funding address %s cannot be recorded (%v): nothing was signed or sent", trust.Address, err)
		}
	}
	s.p.Say("Signing and sending the withdrawal… (a retry sends the same signature: it cannot pay twice)")
	sent := w.Execute(s.ctx, o, func() (signer.Key, error) { return k, nil })
	return s.executed(o, sent)
}

// quote takes the one quote step (withdrawal.TakeQuote) and builds the
// Transfer to sign (NewOrder). ok false: the quote is refused, and why was
// said.
func (s *session) quote(ch withdrawal.Choice) (withdrawal.Order, withdrawal.PricedQuote, bool, error) {
	s.p.Blank()
	s.p.Say("Asking the bridge for a quote…")
	cx, cancel := s.call()
	defer cancel()
	priced, err := withdrawal.TakeQuote(cx, s.client(), ch)
	var refused *withdrawal.QuoteRefusedError
	switch {
	case errors.As(err, &refused):
		s.p.Say("%s. Nothing was signed.", safetext.Capitalized(refused.Error()))
		return withdrawal.Order{}, priced, false, nil
	case err != nil:
		if err := s.interrupted(err); errors.Is(err, ErrInterrupted) {
			return withdrawal.Order{}, withdrawal.PricedQuote{}, false, err
		}
		notInBook := errors.Is(err, exchange.CodeNotInAddressBook)
		switch {
		case notInBook && s.target.Demo != nil:
			// The sandbox's book is fixed: no new quote can help.
			s.p.Say("Quote refused: %s.", config.SandboxBookWords)
			s.p.Say("Another destination: Back home, then Withdraw USDT again; `%s` prints the sandbox's address book.", s.command("sandbox"))
		case notInBook:
			// A new quote alone cannot help.
			s.p.Say("Quote refused: %v.", trimStop(exchange.Explain(err)))
			s.p.Say("Another destination: Back home, then Withdraw USDT again. A new quote helps once the address is in the book.")
		default:
			s.p.Say("Quote refused: %v.", trimStop(exchange.Explain(err)))
		}
		return withdrawal.Order{}, withdrawal.PricedQuote{}, false, nil
	}
	sess, _ := s.client().Session()
	o, err := withdrawal.NewOrder(ch, priced, sess.FundingAccountAddress, s.target.Env.Domain(), s.Nonce(), s.Now())
	if err != nil {
		s.p.Say("%v. Nothing was signed.", trimStop(exchange.Explain(err)))
		return o, priced, false, nil
	}
	return o, priced, true, nil
}

// whatNext asks, after a quote that was not signed, for a new one or home.
func (s *session) whatNext(err error) (bool, error) {
	if err != nil {
		return false, err
	}
	i, err := s.p.Choose("What next?", afterQuote)
	return i == 0, err
}

// countdown says the quote's time left by the service's clock, in whole
// seconds.
func countdown(p withdrawal.PricedQuote, now time.Time) string {
	left := p.Remaining(now)
	if !p.MayStillSign(now) {
		return "(The quote has too little time left to sign: y signs nothing; n for a new one.)"
	}
	// Rounded, not up: a 60 s quote measured a few ms long says 60 s.
	return fmt.Sprintf("(The quote expires in %ds.)", int(left.Round(time.Second)/time.Second))
}

// journalStop says why nothing is signed on a journal that lost lines
// svcwallet wrote to it (journal.RolledBackError), and goes on; any other
// error is returned. signed: found once this one was signed, and not sent.
func (s *session) journalStop(err error, signed bool) error {
	lost, ok := errors.AsType[*journal.RolledBackError](err)
	if !ok {
		return err
	}
	done := "Nothing was signed"
	if signed {
		done = "This one was signed and not sent"
	}
	s.p.Say("Stopped: %v. %s. Run %s: it says what was lost and how to accept the journal as it now is.", lost, done, s.command("doctor"))
	return nil
}

// trustBridge checks the bridge funding address the Transfer pays
// (withdrawal.CheckBridge). A recorded one that changed is shown beside
// the new one, which is trusted only when the user types it exactly
// (BridgeChangedError.Accept); it is recorded once they confirm the
// withdrawal. ok false: stopped, and why was said.
func (s *session) trustBridge(o withdrawal.Order) (withdrawal.BridgeTrust, bool, error) {
	trust, err := withdrawal.CheckBridge(s.target.Env, s.target.BridgePins(), o.Transfer.ToAccount.Hex(), s.Now())
	var changed *withdrawal.BridgeChangedError
	switch {
	case err == nil:
		return trust, true, nil
	case !errors.As(err, &changed) || changed.Pinned:
		s.p.Say("Stopped: %v.", trimStop(err))
		return trust, false, nil
	}
	s.p.Say("Stopped: the bridge funding address changed.")
	s.p.Say("  Recorded:  %s, first seen %s", changed.Expected, changed.Since.UTC().Format("2006-01-02"))
	s.p.Say("  Now given: %s, by environment %s", changed.Seen, changed.Env)
	s.p.Say("%s", withdrawal.BridgeChangeWarning)
	// Trusting it is an answer that pays there: held to the rule of the
	// questions that sign (TypedBack), a line typed or pasted ahead never
	// gives it.
	stop := func(t string) bool { t = strings.ToLower(t); return t == "n" || t == "no" }
	typed, err := s.p.TypedBack("To trust it, type or paste the new address exactly (not shown as you type); type n to stop:", func(typed string) error {
		if stop(typed) {
			return nil
		}
		var err error
		trust, err = changed.Accept(typed)
		return err
	})
	if err != nil {
		return trust, false, err
	}
	if stop(typed) {
		s.p.Say("Not trusted: nothing was signed or recorded.")
		return trust, false, nil
	}
	s.p.Say("Trusted: it is recorded in place of %s once you confirm the withdrawal.", changed.Expected)
	return trust, true, nil
}
