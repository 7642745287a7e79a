package plain

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
)

// Withdrawing USDT, as the console's route, destination and quote steps
// gather it: every answer is checked by the withdrawal domain
// (Choice.CheckAddress, ParseAmount, ParseFeeCap, CheckDestination,
// QuoteRefusal, LookAlike) before the next question.

// withdraw gathers the choice, then quotes, reviews and signs until a
// withdrawal is sent or the user goes back home. No key here is said
// before the first question (sayNoKey), so no answer is given in vain.
func (s *session) withdraw() error {
	noKey := s.sayNoKey()
	s.p.Say("Asking for the withdrawal routes…")
	cx, cancel := s.call()
	info, err := exchange.Patiently(cx, exchange.RetryPolicy{}, s.client().WithdrawalInfo)
	cancel()
	if err != nil {
		return s.interrupted(exchange.Explain(err))
	}
	ch, err := s.chooseRoute(info)
	if err != nil {
		return err
	}
	if ch, err = s.chooseDestination(ch); err != nil {
		return err
	}
	for {
		again, err := s.quoteAndSign(ch, noKey)
		if !again || err != nil {
			return err
		}
	}
}

// chooseRoute asks for the destination chain and, when it pays several,
// the payout token. Only USDT is withdrawn (the service's one enabled
// source token).
func (s *session) chooseRoute(info exchange.WithdrawalInfo) (withdrawal.Choice, error) {
	routes := info.Route[exchange.TokenUSDT]
	if len(routes) == 0 {
		return withdrawal.Choice{}, exchange.UserError{Text: "The service offers no USDT withdrawal route now"}
	}
	options := make([]Option, len(routes))
	for i, rt := range routes {
		pays := "no payout token for now"
		if len(rt.TokensOut) > 0 {
			pays = "pays " + strings.Join(rt.TokensOut, " or ")
		}
		options[i] = Option{Name: rt.Chain, About: chainWords(rt) + ", " + pays}
	}
	for {
		i, err := s.p.Choose("Withdraw USDT from the funding account, through "+info.Provider+", to which chain?", options)
		if err != nil {
			return withdrawal.Choice{}, err
		}
		rt := routes[i]
		if len(rt.TokensOut) == 0 {
			s.p.Say("No payout token on %s for now: pick another chain.", rt.Chain)
			continue
		}
		ch := withdrawal.Choice{Info: info, TokenIn: exchange.TokenUSDT, Route: rt, TokenOut: rt.TokensOut[0]}
		if len(rt.TokensOut) > 1 {
			j, err := s.p.Choose("Which token is paid out on "+rt.Chain+"?", Options(rt.TokensOut...))
			if err != nil {
				return withdrawal.Choice{}, err
			}
			ch.TokenOut = rt.TokensOut[j]
		}
		s.p.Say("Route: %s → %s on %s.", ch.TokenIn, ch.TokenOut, rt.Chain)
		return ch, nil
	}
}

// chooseDestination asks for the destination, the amount and the fee cap,
// each checked as it is typed, then checks them together
// (Choice.CheckDestination) as the console's form does.
func (s *session) chooseDestination(ch withdrawal.Choice) (withdrawal.Choice, error) {
	to, err := s.destination(ch)
	if err != nil {
		return ch, err
	}
	amount, err := s.p.Question(withdrawal.AmountQuestion(ch.TokenIn))
	if err != nil {
		return ch, err
	}
	feeCap, err := s.p.Question(withdrawal.FeeCapQuestion(ch.TokenIn))
	if err != nil {
		return ch, err
	}
	checked, err := ch.CheckDestination(to, amount, feeCap)
	if err != nil {
		return ch, err
	}
	if checked.FeeCap.Valid {
		if share, high := withdrawal.FeeCapShare(checked.Amount, checked.FeeCap.Decimal); high {
			s.p.Say("Note: the fee cap is %s%% of the amount: a quote may take that much in fees.", share.Shift(2).Round(2))
		}
	}
	return checked, nil
}

// chainWords is a route's chain type, and its chain id when that is a
// number, not the chain's name again ("EVM, chain id 42161"; "Tron").
func chainWords(rt exchange.WithdrawalRoute) string {
	words := exchange.ChainTypeLabel(rt.ChainType)
	if _, err := strconv.ParseUint(rt.ChainID, 10, 64); err == nil {
		words += ", chain id " + rt.ChainID
	}
	return words
}

// destination asks for the address (a recent one may be picked), and stops
// on one that looks like a recent one until the user says which is meant.
func (s *session) destination(ch withdrawal.Choice) (string, error) {
	var recent []string
	if j := s.target.Journal; j != nil {
		if recs, err := j.Records(); err == nil {
			recent = withdrawal.RecentDestinations(recs, ch.Route.Chain)
		}
	}
	label := exchange.ChainTypeLabel(ch.Route.ChainType)
	for {
		addr, err := s.typedOrRecent(ch, label, recent)
		if err != nil {
			return "", err
		}
		alike := withdrawal.LookAlike(addr, recent)
		if alike == "" {
			return addr, nil
		}
		s.p.Say("%s %s", withdrawal.LookAlikeStop, withdrawal.LookAlikeWhy)
		s.p.Say("  Typed:  %s", addr)
		s.p.Say("  Recent: %s", alike)
		s.p.Say("  %s", differences(addr, alike))
		i, err := s.p.Choose("Which address is meant?", Options("The typed one is right", "Use the recent one", "Type it again"))
		switch {
		case err != nil:
			return "", err
		case i == 0:
			return addr, nil
		case i == 1:
			return alike, nil
		}
	}
}

// typedOrRecent offers the recent destinations on the chain, newest first
// (on the sandbox without any, its address book), and another typed; a
// typed one is checked for the chain (Choice.CheckAddress).
func (s *session) typedOrRecent(ch withdrawal.Choice, label string, recent []string) (string, error) {
	var offered []Option
	title := "Pay out to which " + label + " address on " + ch.Route.Chain + "?"
	for _, a := range recent[:min(len(recent), 3)] {
		offered = append(offered, Option{Name: a})
	}
	if d := s.target.Demo; len(offered) == 0 && d != nil {
		// A first withdrawal on the sandbox: its address book, as the
		// console's form offers it.
		title = "Pay out to which " + label + " address of the sandbox's address book, on " + ch.Route.Chain + "?"
		for _, p := range d.AddressBook {
			if p.ChainType == ch.Route.ChainType {
				offered = append(offered, Option{Name: p.Address, About: p.Fate})
			}
		}
	}
	if len(offered) > 0 {
		i, err := s.p.Choose(title, append(offered, Option{Name: "another address"}))
		if err != nil {
			return "", err
		}
		if i < len(offered) {
			return offered[i].Name, nil
		}
	}
	typed, err := s.p.Question(ch.DestinationQuestion())
	if err != nil {
		return "", err
	}
	return ch.CheckAddress(typed)
}

// differences says where two addresses of one length differ, by
// character position, for a reader who cannot see them marked.
func differences(a, b string) string {
	var at []string
	for i := 0; i < len(a) && i < len(b); i++ {
		if !strings.EqualFold(a[i:i+1], b[i:i+1]) {
			at = append(at, fmt.Sprint(i+1))
		}
	}
	return "They differ at characters " + strings.Join(at, ", ") + "."
}

// Missing is a question whose answer goes to To, asked only while To
// holds none; Q gives the question when it is asked, so it may depend on
// an answer before it.
type Missing struct {
	To *string
	Q  func() intent.Question
}

// AskMissing asks on out, one a line as plain mode asks them, the
// questions whose answers are still missing, in order, each checked as
// typed; what is given is not asked. It is how the command line takes, on
// a terminal, the flags it was not given. The input's end is ErrEnd, ctx's
// end ErrInterrupted.
func AskMissing(ctx context.Context, in io.Reader, out io.Writer, asks ...Missing) error {
	return NewPrompter(ctx, in, out, nil).askMissing(asks)
}

// askMissing asks, in order, the questions of asks whose answers are
// still missing, each checked as typed.
func (p *Prompter) askMissing(asks []Missing) error {
	for _, m := range asks {
		if *m.To != "" {
			continue
		}
		answer, err := p.Question(m.Q())
		if err != nil {
			return err
		}
		*m.To = answer
	}
	return nil
}
