package runnext

import (
	"strconv"
	"time"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// Withdraw is `withdraw` with the flags that choose ch: what plain mode
// says to run without a terminal and the console's offline preparation
// prints, one way, so both prepare the withdrawal as chosen.
func Withdraw(ch withdrawal.Choice) []string {
	w := []string{"withdraw", "--chain", ch.Route.Chain, "--to", ch.ToAddress, "--amount", ch.Amount.String()}
	if ch.TokenOut != exchange.TokenUSDT {
		w = append(w, "--token-out", ch.TokenOut)
	}
	if ch.FeeCap.Valid {
		w = append(w, "--max-fee", ch.FeeCap.Decimal.String())
	}
	return w
}

// Authorize is `builder authorize` with the flags that choose a, as
// Withdraw is for a withdrawal; a key beyond Trade is named again in
// --grant, as --yes and --signer offline need (builder.AcceptsGrant),
// for a person who reads it in the line before running it.
func Authorize(a builder.Auth) []string {
	expires := a.Validity.String()
	if a.Validity%(24*time.Hour) == 0 {
		expires = strconv.Itoa(int(a.Validity/(24*time.Hour))) + "d"
	}
	w := []string{"builder", "authorize", "--builder", a.Builder.Hex(), "--max-futures-fee", signer.FormatFeeRate(a.Futures),
		"--max-spot-fee", signer.FormatFeeRate(a.Spot), "--expires", expires}
	if a.WithKey {
		w = append(w, "--api-key-signer", a.KeySigner.Hex(), "--permissions", a.Perms.String(), "--label", a.Label)
	}
	if a.FundsGrant() != 0 {
		w = append(w, "--grant", a.Perms.String())
	}
	return w
}
