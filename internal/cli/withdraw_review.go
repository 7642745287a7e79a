package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// The kinds of the --json lines of withdraw (and of status --watch, which
// --wait runs): what each line is, for a script reading the stream.
const (
	kindReview   = "review"
	kindPrepared = "prepared"
	kindAccepted = "accepted"
	kindChange   = "change" // a state learned while watching
	kindFinal    = "final"  // the record a watch ends with, one per id
	kindStatus   = "status" // a record asked once, without --watch
)

// reviewJSON is the --json review: the facts the console's review shows.
type reviewJSON struct {
	Kind string `json:"kind"`
	whereJSON
	DryRun        bool            `json:"dry_run"`
	QuoteID       string          `json:"quote_id"`
	Chain         string          `json:"chain"`
	ToAddress     string          `json:"to_address"`
	TokenIn       string          `json:"token_in"`
	TokenOut      string          `json:"token_out"`
	PayAmount     string          `json:"pay_amount"`
	ReceiveAmount string          `json:"receive_amount"`
	Fee           string          `json:"fee"`
	FeeUSD        string          `json:"fee_usd"`
	YouLose       string          `json:"you_lose"`
	FeeCap        string          `json:"max_fee,omitempty"`
	ExpiresAt     string          `json:"quote_expires_at"`
	Bridge        bridgeJSON      `json:"bridge"`
	Fields        []intent.Field  `json:"fields"`
	TypedData     json.RawMessage `json:"typed_data"`
	Digest        string          `json:"digest"`
	Signer        *signerJSON     `json:"signer,omitempty"`
	// YouLoseValued says how you_lose values a converted payout (token_out
	// ≠ token_in, paid out below 1:1): pay − receive with one token_out
	// worth one token_in. Absent at or above 1:1: you_lose is the fee.
	YouLoseValued string `json:"you_lose_valued,omitempty"`
	// Warnings are what the review warns of: a loss above
	// withdrawal.LossWarnShare of the amount.
	Warnings []string `json:"warnings,omitempty"`
}

// signerJSON is the key a review will be signed with.
type signerJSON struct {
	Address string `json:"address"`
	Source  string `json:"source"`
	// RequoteNote: the source waits for a person, so the quote may expire
	// before the signature comes (withdrawal.RequoteNote).
	RequoteNote string `json:"requote_note,omitempty"`
	// DomainHash and MessageHash are what a device that signs EIP-712
	// blind (a Ledger through cast) shows: compare them there.
	DomainHash  string `json:"domain_hash,omitempty"`
	MessageHash string `json:"message_hash,omitempty"`
}

type bridgeJSON struct {
	Provider string `json:"provider"`
	Address  string `json:"address"`
	Trust    string `json:"trust"`
}

// quoteIDsEnd is what ends with the command on the embedded sandbox.
const quoteIDsEnd = "its quote ids"

// printReview prints what will be signed in e: the console review's
// facts, after the environment; a loss worth a warning is said on stderr,
// after the review when a question follows.
// asked: a question follows, on stderr, where the review is then written
// too, whatever stdout is (with --json, beside the review's JSON line).
// A review stdout does not take ends the command before anything is
// signed (reviewUnwritten), as --yes would sign what no one could read.
func (c withdrawCmd) printReview(e config.Environment, o withdrawal.Order, trust withdrawal.BridgeTrust, key *keyChoice, dryRun, asJSON, asked bool) error {
	r := o.Review(trust.Note(), false)
	warning := o.Loss().Warning()
	if warning != "" && !asked {
		warn(c.env.Stderr, c.app.name, "%s", warning)
	}
	if !asked && asJSON {
		c.app.sayEmbedded(e, quoteIDsEnd)
	}
	if asJSON {
		if err := c.printReviewJSON(e, o, r, trust, key, dryRun, warning); err != nil || !asked {
			return err
		}
	}
	out := c.env.Stdout
	if asked {
		out = c.env.Stderr
	}
	// Wrapped on a terminal; a dry run's typed data, JSON, as it is.
	var b bytes.Buffer
	w := plain.FittedFor(&b, out)
	printWhere(w, e, quoteIDsEnd)
	fmt.Fprintln(w, "Withdrawal")
	printFacts(w, r.LabelWidth(), o.Facts())
	fmt.Fprintln(w)
	printTypedData(w, r, key)
	fmt.Fprintln(w, withdrawal.ReviewSentence)
	if key != nil && key.Source.Waits() {
		fmt.Fprintln(w, withdrawal.RequoteNote(o))
	}
	_, err := out.Write(b.Bytes())
	if err == nil && dryRun {
		var d bytes.Buffer
		fmt.Fprintln(&d)
		printDryRun(&d, r.Intent)
		_, err = out.Write(d.Bytes())
	}
	if asked {
		// Said last, above the question: said before a review of 20
		// lines it scrolled away on a small terminal.
		if warning != "" {
			warn(c.env.Stderr, c.app.name, "%s", warning)
		}
		return nil
	}
	return reviewUnwritten(err)
}

// reviewUnwritten is a review stdout did not take (err from writing it;
// nil: taken): code output, and nothing signed or sent.
func reviewUnwritten(err error) error {
	if err == nil {
		return nil
	}
	return outputError(fmt.Errorf("%w; nothing was signed or sent", err))
}

// printReviewJSON is printReview's --json line.
func (c withdrawCmd) printReviewJSON(e config.Environment, o withdrawal.Order, r intent.Review, trust withdrawal.BridgeTrust, key *keyChoice, dryRun bool, warning string) error {
	q, in, l := o.Quote, o.Choice.TokenIn, o.Loss()
	out := reviewJSON{Kind: kindReview, whereJSON: whereOf(e), DryRun: dryRun, QuoteID: q.QuoteID, Chain: o.Choice.Route.Chain, ToAddress: o.Choice.ToAddress,
		TokenIn: in, TokenOut: o.Choice.TokenOut, PayAmount: q.PayAmount.String(), ReceiveAmount: q.ReceiveAmount.String(),
		Fee: q.Fee.String(), FeeUSD: q.FeeUSD.String(), YouLose: l.Lost.String(), YouLoseValued: l.Valued(), ExpiresAt: q.ExpiresAt.UTC().Format(time.RFC3339),
		Bridge: bridgeJSON{Provider: o.Choice.Info.Provider, Address: o.Transfer.ToAccount.Hex(), Trust: trust.Note()},
		Fields: r.Fields(), TypedData: r.TypedData(), Digest: r.Digest().Hex()}
	if key != nil {
		out.Signer = &signerJSON{Address: key.Address.Hex(), Source: key.what}
		if key.Source.Waits() {
			out.Signer.RequoteNote = withdrawal.RequoteNote(o)
			out.Signer.DomainHash, out.Signer.MessageHash = o.Domain.Separator().Hex(), signer.StructHash(o.Transfer).Hex()
		}
	}
	if o.Choice.FeeCap.Valid {
		out.FeeCap = o.Choice.FeeCap.Decimal.String()
	}
	if warning != "" {
		out.Warnings = []string{warning}
	}
	return reviewUnwritten(writeJSONLine(c.env.Stdout, out))
}

// acceptedJSON is the --json line of the service's 202.
type acceptedJSON struct {
	Kind string `json:"kind"`
	whereJSON
	Accepted bool   `json:"accepted"`
	QuoteID  string `json:"quote_id"`
	TxID     string `json:"tx_id"`
	State    string `json:"state"`
	// The amounts are withdrawal.Order.Figures: one nothing gave is left
	// out, never a zero.
	ReceiveAmount string `json:"receive_amount,omitempty"`
	Fee           string `json:"fee,omitempty"`
	FeeUSD        string `json:"fee_usd,omitempty"`
	Chain         string `json:"chain,omitempty"`
	ToAddress     string `json:"to_address"`
	TokenOut      string `json:"token_out"`
	// Warnings say what of the answer did not add up (withdrawal.Order.Locked).
	Warnings []string `json:"warnings,omitempty"`
}

// printAccepted prints the service's 202 in e; hint: with how to follow it.
// It returns stdout's error when the acceptance was not written
// (acceptedUnwritten says so).
func (c withdrawCmd) printAccepted(e config.Environment, a exchange.WithdrawAccepted, o withdrawal.Order, asJSON, hint bool) error {
	// The withdrawal is the quote that was sent, whatever the answer echoes.
	a.QuoteID = o.Quote.QuoteID
	if asJSON {
		locked, unlike := o.Locked(a)
		given := o.Figures(locked)
		line := acceptedJSON{kindAccepted, whereOf(e), true, locked.QuoteID, locked.TxID, locked.State, given.Receive, given.Fee, given.FeeUSD,
			o.Choice.Route.Chain, o.Choice.ToAddress, o.Choice.TokenOut, nil}
		if unlike != nil {
			line.Warnings = []string{unlike.Error()}
		}
		return writeJSONLine(c.env.Stdout, line)
	}
	said, facts := o.Accepted(a)
	var b bytes.Buffer
	w := plain.FittedFor(&b, c.env.Stdout)
	fmt.Fprintf(w, "\n%s\n", said)
	printFacts(w, 16, facts)
	if hint {
		fmt.Fprintf(w, "Follow it: %s\n", c.app.invocation().follow(a.QuoteID))
	}
	_, err := c.env.Stdout.Write(b.Bytes())
	return err
}

// acceptedUnwritten is withdrawal id accepted, what of it (its acceptance,
// its status) not taken by stdout (err): code output, the command's other
// error, saying it was accepted and next, what to do (afterAccepted):
// "cannot write the output" alone read as nothing paid, and withdraw run
// again pays again.
func (c withdrawCmd) acceptedUnwritten(id, what string, err error, next string) error {
	return (&cmdError{err: fmt.Errorf("withdrawal %s was accepted, but %s cannot be written to the output (%w): %s", id, what, err, next), code: codeOutput}).about(id)
}

// afterAccepted is what to do about withdrawal id, accepted by withdraw
// and its words not all written: follow it, never run the command again;
// on the embedded sandbox nothing, as it ended with the command.
func (c withdrawCmd) afterAccepted(id string, embedded bool) string {
	if embedded {
		return "the embedded sandbox ended with this command, and nothing real moved"
	}
	return c.app.invocation().followIt(id) + "; the same command again would pay again"
}
