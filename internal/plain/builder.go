package plain

import (
	"errors"
	"strings"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// Builder authorization, as the console's form, review and result take
// it: each answer checked by the builder domain's parsers as it is typed,
// all of them by builder.Check, the message built by builder.NewOrder,
// signed and sent by Order.Authorize.

// authorizeBuilder asks for the authorization, reviews and signs it.
func (s *session) authorizeBuilder() error {
	sess, _ := s.client().Session()
	in := builder.Input{Main: sess.FundingAccountAddress}
	s.p.Say("The builder may trade for your account %s, whose key signs.", in.Main)
	var err error
	ask := func(question string, check func(string) error) string {
		if err != nil {
			return ""
		}
		var answer string
		answer, err = s.p.Ask(question, check)
		return answer
	}
	in.Builder = ask("Builder account address (0x and 40 hex digits):", func(a string) error {
		_, err := builder.ParseEVMAddress(a, "the builder account")
		return err
	})
	fee := func(a string) error { _, err := builder.ParseFeePercent(a); return err }
	in.FuturesFee = ask("Max futures fee, in percent (such as 0.1):", fee)
	in.SpotFee = ask("Max spot fee, in percent (such as 0.05):", fee)
	if err == nil {
		// An empty line is the console's default, builder.DefaultValidity.
		in.Expires, err = s.p.AskOr("Valid for, such as 7d, 72h or 90m (at most 30 days; an empty line takes "+builder.HumanDuration(builder.DefaultValidity)+"):", "",
			func(a string) error { _, err := builder.ParseValidity(a); return err })
	}
	if err != nil {
		return err
	}
	withKey, err := s.p.Choose("Create an API key for the builder as well?", Options("No", "Yes"))
	if err != nil {
		return err
	}
	if withKey == 1 {
		in.Label = ask("API key label, shown in the API key list:", nil)
		in.KeySigner = ask("Address of the key that will sign the builder's API requests (its private key stays with the builder; 0x and 40 hex digits):", func(a string) error {
			_, err := builder.ParseEVMAddress(a, "the API key's signer")
			return err
		})
		in.Permissions = ask("Permissions, joined by & (any of "+permissionNames()+"), such as Trade:", func(a string) error {
			_, err := signer.ParsePermissions(a)
			return err
		})
		if err != nil {
			return err
		}
	}
	a, err := builder.Check(in)
	if err != nil {
		return err
	}
	return s.signBuilder(builder.NewOrder(a, s.target.Env.Domain(), s.Nonce(), s.Now()))
}

// permissionNames lists the permissions by name, in bit order.
func permissionNames() string {
	names := make([]string, len(signer.AllPermissions))
	for i, p := range signer.AllPermissions {
		names[i] = signer.Permissions(0).With(p).String()
	}
	return strings.Join(names, ", ")
}

// signBuilder reviews o, asks for a typed y, signs and sends it. A lost
// answer may be sent again, the same signed body: never signed anew.
func (s *session) signBuilder(o builder.Order) error {
	a, r := o.Auth, o.Review()
	key := s.keyFor(a.Main)
	s.p.Blank()
	s.p.Say("Review: the builder authorization (%s)", r.Purpose)
	s.line("Builder", a.Builder.Hex(), "may trade for your account")
	s.line("For account", a.Main.Hex(), "your main account")
	s.line("Max futures fee", builder.FeeText(a.Futures), "")
	s.line("Max spot fee", builder.FeeText(a.Spot), "")
	s.line("Signature until", o.Expiration().UTC().Format("2006-01-02 15:04:05 UTC"), "valid for "+builder.HumanDuration(a.Validity))
	if a.WithKey {
		s.line("Key label", a.Label, "sent beside the signature")
		s.line("Key signer", a.KeySigner.Hex(), "")
		s.line("Permissions", a.Perms.String(), "")
	}
	s.printTypedData(r, key)
	if a.Builder == a.Main {
		s.p.Say("Warning: %s", builder.OwnAccountWarning)
	}
	for _, w := range a.FeeWarnings() {
		s.p.Say("Warning: %s", w)
	}
	if key.err != nil {
		s.p.Say("Not signed: %v. Nothing was signed or sent.", key.err)
		return nil
	}
	s.sayWhere()
	if err := s.onTerminal("builder authorization", builderWords(a)); err != nil {
		return err
	}
	yes, err := s.p.Confirm(func() string { return "Sign and authorize the builder?" })
	if err != nil {
		return err
	}
	if !yes {
		s.p.Say("Not signed: nothing was signed or sent.")
		return nil
	}
	s.p.Say("Signing and sending the authorization…")
	cx, cancel := s.waitFor()
	req, res, err := o.Authorize(cx, s.client(), key.load)
	cancel()
	for err != nil {
		switch {
		case errors.Is(err, ErrEnd) || errors.Is(err, ErrInterrupted):
			return err
		case req.Signature.R == "" && s.ctx.Err() != nil:
			return ErrInterrupted
		case req.Signature.R == "" || builder.Refused(err):
			// Nothing was sent, or it was refused for good: another try
			// needs a new review, with a new nonce.
			s.p.Say("Not authorized: %v.", trimStop(builder.Explain(err)))
			return nil
		}
		s.p.Say("Not authorized so far: %v.", trimStop(builder.Explain(err)))
		i, cerr := s.p.Choose("It may have gone through. Send the same signed authorization again? It cannot grant twice.", Options("Send it again", "Back home"))
		if cerr != nil || i == 1 {
			s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex()+" (no answer)")
			return cerr
		}
		cx, cancel := s.call()
		res, err = s.client().AuthorizeBuilder(cx, req)
		cancel()
	}
	s.sent = append(s.sent, "a builder authorization of "+a.Builder.Hex())
	s.builderResult(o, res)
	return nil
}

// builderResult says the authorization and the API key, shown this once.
func (s *session) builderResult(o builder.Order, res exchange.BuilderAuthorizeResult) {
	a := o.Auth
	nonce, _ := o.Message.NonceExpiration()
	s.p.Say("Builder authorized (%s, nonce %d).", a.Mode(), nonce)
	s.line("Builder", a.Builder.Hex(), "")
	s.line("May trade for", a.Main.Hex(), "")
	s.line("Max futures fee", builder.FeeText(a.Futures), "")
	s.line("Max spot fee", builder.FeeText(a.Spot), "")
	s.line("Signature until", o.Expiration().UTC().Format("2006-01-02 15:04:05 UTC"), "")
	switch {
	case res.APIKey != "":
		s.line("API key", res.APIKey, "")
		s.p.Say("This API key is shown once and will not be shown again: store it now.")
	case a.WithKey:
		s.p.Say("The service returned no API key for this authorization.")
	}
}
