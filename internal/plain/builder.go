package plain

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Builder authorization, as the console's form, review and result take
// it: each answer checked by the builder domain's parsers as it is typed,
// all of them by builder.Check, the message built by builder.NewOrder,
// signed and sent by Order.Authorize.

// authorizeBuilder asks for the authorization, reviews and signs it.
func (s *session) authorizeBuilder() error {
	sess, _ := s.client().Session()
	in := builder.Input{Main: sess.FundingAccountAddress}
	// Whether a key signs is known before any question (builder.SigningKey,
	// every face's check): a form that cannot be signed is not asked.
	if common.IsHexAddress(in.Main) {
		keys := builder.Keys{Held: s.wallet != nil, Lookup: s.lookup()}
		_, err := builder.SigningKey(s.ctx, keys, common.HexToAddress(in.Main))
		if nk, ok := errors.AsType[*builder.NoKeyError](err); ok {
			s.p.Say("%s. %s.", safetext.Capitalized(err.Error()), s.keyWays(&nk.NoKeyError))
			return nil
		}
	}
	s.p.Say("The builder may trade for your account %s, whose key signs.", in.Main)
	if d := s.target.Demo; d != nil && d.Builder != "" {
		// On the sandbox: its builder account, as the console's form
		// offers it, or another typed.
		i, err := s.p.Choose("Authorize which builder account?", []Option{{Name: d.Builder, About: "the sandbox's builder account"}, {Name: "another address"}})
		if err != nil {
			return err
		}
		if i == 0 {
			in.Builder = d.Builder
		}
	}
	if err := s.p.askMissing(BuilderMissing(&in, builder.Asked)); err != nil {
		return err
	}
	withKey, err := s.p.ChooseToAuthorize("Create an API key for the builder as well?", Options("No", "Yes"))
	if err != nil {
		return err
	}
	if withKey == 1 {
		if err := s.p.askMissing(BuilderMissing(&in, builder.KeyAsked)); err != nil {
			return err
		}
	}
	a, err := builder.Check(in)
	if err != nil {
		return err
	}
	return s.signBuilder(builder.NewOrder(a, s.target.Env.Domain(), s.Nonce(), s.Now()))
}

// BuilderMissing are the questions of fields whose answers in in are
// still missing, each answer to be kept in in: plain mode's form asks
// them, and the command line for the flags it was not given. One already
// chosen (the sandbox's builder) is not asked.
func BuilderMissing(in *builder.Input, fields []builder.Field) []Missing {
	var asks []Missing
	for _, f := range fields {
		if *in.Of(f) == "" {
			asks = append(asks, Missing{To: in.Of(f), Q: f.Question})
		}
	}
	return asks
}

// signBuilder reviews o, asks for a typed y, signs and sends it. A lost
// answer may be sent again, the same signed body: never signed anew.
func (s *session) signBuilder(o builder.Order) error {
	if err := builder.Signable(s.target.Journal); err != nil {
		return s.journalStop(err, false)
	}
	a, r := o.Auth, o.Review()
	key := s.keyFor(a.Main)
	s.p.Blank()
	s.p.Say("Review: the builder authorization (%s)", r.Purpose)
	s.facts(o.Facts())
	s.printTypedData(r, key)
	for _, w := range a.Warnings() {
		s.p.Say("Warning: %s", w)
	}
	if grantAsked(a) {
		s.p.Say("A second question asks you to confirm the API key's grant.")
	}
	if key.err != nil {
		s.p.Say("Not signed: %v. Nothing was signed or sent.", key.err)
		return nil
	}
	s.sayWhere()
	if err := s.onTerminal("builder authorization", runnext.Authorize(a)); err != nil {
		return err
	}
	yes, err := s.p.Confirm(func() string { return a.SignQuestion(s.target.Env) })
	if err != nil {
		return err
	}
	if yes && grantAsked(a) {
		yes, err = s.secondYes(a.GrantQuestion())
		if err != nil {
			return err
		}
		o.Granted = yes
	}
	if !yes {
		s.p.Say("Not signed: nothing was signed or sent.")
		return nil
	}
	s.p.Say("Signing and sending the authorization…")
	cx, cancel := s.waitFor()
	req, res, err := o.Authorize(cx, s.client(), s.target.Journal, key.load)
	cancel()
	var fate builder.Fate   // of the last sending of req
	var why builder.Failure // the last sending whose own answer left it unknown
	reached := false        // whether a sending of req reached the service
	for err != nil {
		switch {
		case errors.Is(err, ErrEnd) || errors.Is(err, ErrInterrupted):
			return err
		case errors.As(err, new(*journal.RolledBackError)):
			return s.journalStop(err, false)
		case req.Signature.R == "" && s.ctx.Err() != nil:
			return ErrInterrupted
		case req.Signature.R == "":
			// Nothing was signed: another try is a new review.
			s.p.Say("%s.", trimStop(labelled("Not authorized", builder.Explain(err))))
			return nil
		}
		f := a.Failed(err, fate)
		fate, reached = f.Fate, reached || f.Fate != builder.FateNotSent
		if f.Answer != 0 {
			why = f
		}
		head, ask := builderAgain(f)
		s.p.Say("%s: %v.", head, trimStop(f))
		switch f.Fate {
		case builder.FateRefused:
			// Refused for good: another try needs a new review, with a new nonce.
			s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex()+" (refused)")
			return nil
		case builder.FateTaken:
			s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex()+" ("+takenWords(f)+")")
			return nil
		}
		// left gives the last words what it ended as: signed, and sent or not.
		left := func() {
			switch {
			case fate == builder.FateUnknown:
				s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex()+" ("+unknownWords(why)+")")
			case reached:
				s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex()+" (not taken)")
			default:
				s.notSent = append(s.notSent, "a builder authorization of "+a.Builder.Hex())
			}
		}
		// It sends what was signed: held to the gate, as the question that signed it.
		i, cerr := s.p.ChooseToSend(ask, Options("Send it again", "Back home"))
		if cerr != nil || i == 1 {
			left()
			return cerr
		}
		if f.Wait > 0 {
			// The wait the 429 asked, from the answer, on the session's
			// clock: said, or the session sits silent for up to its cap.
			s.p.Say("Waiting %d s, as the service asked, before sending it again…", f.WaitSeconds())
			select {
			case <-s.After(f.Wait):
			case <-s.ctx.Done():
				left()
				return ErrInterrupted
			}
		}
		cx, cancel := s.call()
		res, err = s.client().AuthorizeBuilder(cx, req)
		cancel()
	}
	s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex())
	s.builderResult(o, res)
	return nil
}

// builderAgain words what became of a signed authorization not accepted
// (builder.Auth.Failed): the head of its line (Failure.Head, every
// face's), and the question that offers the same signed body again (none
// when refused for good or taken).
func builderAgain(f builder.Failure) (head, ask string) {
	switch f.Fate {
	case builder.FateNotSent:
		ask = "Send the same signed authorization, which was not sent?"
	case builder.FateLimited:
		ask = fmt.Sprintf("Send the same signed authorization in %d s?", f.WaitSeconds())
	case builder.FateUnknown:
		ask = "Send the same signed authorization again? Nothing is signed anew."
		if f.Wait > 0 {
			ask = fmt.Sprintf("Send the same signed authorization again in %d s? Nothing is signed anew.", f.WaitSeconds())
		}
	}
	return f.Head(), ask
}

// takenWords say, in the last words, how an authorization was found taken.
func takenWords(f builder.Failure) string {
	if f.TakenEarlier {
		return "taken by the send that got no answer"
	}
	return "taken, its answer unreadable"
}

// unknownWords say, in the last words, what left an authorization's
// outcome unknown (builder.Answer): each answer its own.
func unknownWords(f builder.Failure) string {
	switch f.Answer {
	case builder.AnswerServerError:
		return fmt.Sprintf("a server error, HTTP %d: may have been taken", f.Status)
	case builder.AnswerUnnamed:
		return fmt.Sprintf("HTTP %d, which does not say whether it was taken", f.Status)
	case builder.AnswerUnreadable:
		return fmt.Sprintf("HTTP %d with a body not the service's answer: may have been taken", f.Status)
	}
	return "no answer"
}

// builderResult says the authorization and the API key, shown this once.
func (s *session) builderResult(o builder.Order, res exchange.BuilderAuthorizeResult) {
	a := o.Auth
	nonce, _ := o.Message.NonceExpiration()
	s.p.Say("Builder authorized (%s, nonce %d).", a.Mode(), nonce)
	s.facts(a.Granted(o.Expiration()))
	switch {
	case res.APIKey != "":
		s.line("API key", res.APIKey, "")
		s.p.Say("This API key is shown once and will not be shown again: store it now.")
	case a.WithKey:
		s.p.Say("The service returned no API key for this authorization.")
	}
}

// grantAsked: a's API key may move or administer the account's funds,
// which builder.AcceptsGrant lets through only on its own answer (no
// grant is named beforehand in plain mode): a second question, answered
// only by "yes" typed in full, as a loss of most of a withdrawal is.
func grantAsked(a builder.Auth) bool {
	return errors.Is(builder.AcceptsGrant(a, builder.NamedGrant{}), builder.ErrGrantUnanswered)
}
