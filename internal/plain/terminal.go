package plain

import (
	"errors"
	"strconv"
	"time"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// ErrNoTerminal ends plain mode at a question that signs when the answers
// come from no terminal (a pipe, a file) or the questions are written on
// none: as `svcwallet withdraw` without --yes, nothing is asked or signed,
// and the command to run instead was said.
var ErrNoTerminal = errors.New("no terminal to confirm on")

// onTerminal lets a question that signs the what reviewed be asked: only on
// a terminal (Gate.OnTerminal). Otherwise it says so, and the command line
// (instead, its words) that signs it without asking, and ends plain mode.
func (s *session) onTerminal(what string, instead []string) error {
	if s.Gate.OnTerminal() {
		return nil
	}
	s.p.Say("Not signed: the answers do not come from a terminal, or the questions are not written on one, so the %s cannot be confirmed here; nothing was signed or sent.", what)
	s.p.Say("To sign it without a question, run: %s", s.command(append(instead, "--yes")...))
	return ErrNoTerminal
}

// withdrawWords are the flags of `svcwallet withdraw` for the choice ch.
func withdrawWords(ch withdrawal.Choice) []string {
	w := []string{"withdraw", "--chain", ch.Route.Chain, "--to", ch.ToAddress, "--amount", ch.Amount.String()}
	if ch.TokenOut != exchange.TokenUSDT {
		w = append(w, "--token-out", ch.TokenOut)
	}
	if ch.FeeCap.Valid {
		w = append(w, "--max-fee", ch.FeeCap.Decimal.String())
	}
	return w
}

// builderWords are the flags of `svcwallet builder authorize` for a.
func builderWords(a builder.Auth) []string {
	expires := a.Validity.String()
	if a.Validity%(24*time.Hour) == 0 {
		expires = strconv.Itoa(int(a.Validity/(24*time.Hour))) + "d"
	}
	w := []string{"builder", "authorize", "--builder", a.Builder.Hex(), "--max-futures-fee", signer.FormatFeeRate(a.Futures),
		"--max-spot-fee", signer.FormatFeeRate(a.Spot), "--expires", expires}
	if a.WithKey {
		w = append(w, "--api-key-signer", a.KeySigner.Hex(), "--permissions", a.Perms.String(), "--label", a.Label)
	}
	return w
}
