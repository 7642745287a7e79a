package follow

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Outcome is what became of a withdrawal as far as is known, in the one
// name and the one sentence every view gives it: the console's History,
// status screen and watch board (and its CSV export), `svcwallet history`,
// `svcwallet status` (text, CSV, and the "outcome" and "meaning" of its
// JSON) and `svcwallet withdraw resume`. Each fact has one name: a state of
// SPEC.md §3 while the service's record says it all, else one of the
// Label names. The wire state itself stays in every JSON "state".
type Outcome struct {
	Name  string // a word or two, for a list's cell, a CSV's, a title
	Words string // what it means for the money, in a sentence or two
	// Reason is why the service refused the request (LabelRefused), as
	// the journal holds it; "" otherwise.
	Reason string
}

// Sentence is the Words, and the Reason after them when there is one.
func (o Outcome) Sentence() string {
	if o.Reason == "" {
		return o.Words
	}
	return o.Words + " Reason: " + strings.TrimSuffix(o.Reason, ".") + "."
}

// The names of what is not a state of the service's (Outcome.Name).
const (
	// LabelExpired: the quote expired without being executed, so nothing
	// moved: a CREATED record past the quote's expiry, or a journaled
	// request the service refused as expired or never executed.
	LabelExpired = "EXPIRED"
	// LabelRefused: the service refused the request for a reason of its
	// own (the balance, screening, a limit...): nothing moved.
	LabelRefused = "REFUSED"
	// LabelNotSent: the request never left this machine (a failed dial,
	// no session): the service never saw it, nothing moved.
	LabelNotSent = "NOT SENT"
	// LabelUnanswered: the journaled request got no answer; it may or may
	// not have executed until it is resumed.
	LabelUnanswered = "UNANSWERED"
	// LabelContradicts is a CREATED record of a withdrawal this account's
	// journal saw accepted; its words say to contact support.
	LabelContradicts = "CREATED?"
	// LabelVanished: the service does not know a withdrawal this
	// account's journal saw accepted (Follow.Vanished); its words say to
	// contact support.
	LabelVanished = "NOT FOUND?"
	// LabelNotFoundYet: the service does not know a withdrawal this
	// machine sent with no answer, whose quote may still execute
	// (Follow.MayBeUnderway): not final, asked again while followed.
	LabelNotFoundYet = "NOT FOUND YET"
	// LabelNotFound: the service knows no withdrawal with this quote id on
	// this account.
	LabelNotFound = "NOT FOUND"
	// LabelRateLimited, LabelNoAnswer and LabelAsking stand in for a
	// state not learned yet: the service's rate limit holds the asks, the
	// asks so far failed, or none was answered yet.
	LabelRateLimited = "RATE LIMITED"
	LabelNoAnswer    = "NO ANSWER"
	LabelAsking      = "ASKING"
	// LabelOtherLogin: a kept id another login followed, of which nothing
	// is known, held unasked (Followed.Held).
	LabelOtherLogin = "OTHER LOGIN"
)

// The words of the names that are not states (StateWords has the states'),
// read after the name as StateWords are.
const (
	refusedWords    = "Nothing was debited, and nothing more will happen to this request."
	notSentWords    = "The request never left this machine, so the service never saw it and nothing was debited; it is safe to try again."
	unansweredWords = "It may or may not have been executed; resuming it re-sends the same signed request (it cannot pay twice) or asks the service whether it arrived."
	// refusedHereWords say whose the refusal is when the service's record
	// only says the quote never executed (Follow.RefusedHere).
	refusedHereWords = "(This machine's journal holds the refusal; the service reports the quote never executed.)"
	// refusedUnknownWords say it when the service does not know the quote.
	refusedUnknownWords = "(This machine's journal holds the refusal; the service does not know this quote id.)"
	notFoundWords       = "No withdrawal with this quote id on this account: it is unknown, or it belongs to another account (the service does not say which). Check the id, or look it up logged in to the account and environment that made it."
)

// unseenHashWords are the other fact of an id not found that has a
// SOLANA payout hash's shape, which Resolve asks as a quote id when this
// machine has not seen it as a payout hash.
const unseenHashWords = "if it is a SOLANA payout hash instead, no withdrawal this machine has seen (its journal and watch board) has it, and the service finds withdrawals by quote id only: ask for the quote id, which is in the withdrawal's confirmation"

// NotFoundSentence says of quoteID that the service does not know it on
// this account, and what to do next: the one wording of every face that
// names the id. An id of a SOLANA payout hash's shape also has the words
// of a payout hash not seen here, since it may be one.
func NotFoundSentence(quoteID string) string {
	said := "no withdrawal with quote id " + quoteID + " on this account: it is unknown, or it belongs to another account (the service does not say which); check the id, or look it up logged in to the account and environment that made it"
	if isSolanaSignature(quoteID) {
		said += "; " + unseenHashWords
	}
	return said
}

// nearHashWords say of an id of 0x and hex digits, one or two fewer or more
// than a payout hash's 64, that it looks like a hash miscopied: refused for
// a private key's shape (HashAdvice), it had no word of the hash it nearly
// is. Never sent, such an id is never said not found.
func nearHashWords(id string) string {
	n := len(id) - 2
	if n < 62 || n > 66 || n == 64 || !strings.EqualFold(id[:2], "0x") || !safetext.HexDigits(id[2:], n) {
		return ""
	}
	off, by := "short", 64-n
	if n > 64 {
		off, by = "too long", n-64
	}
	digits := "a digit"
	if by > 1 {
		digits = fmt.Sprintf("%d digits", by)
	}
	return "it looks like a payout hash " + digits + " " + off + " (0x and 64 hex digits): copy it again, whole"
}

// notFoundOutcome is NOT FOUND for quoteID, in NotFoundSentence's facts.
func notFoundOutcome(quoteID string) Outcome {
	if isSolanaSignature(quoteID) {
		return Outcome{Name: LabelNotFound, Words: notFoundWords + " " + safetext.Capitalized(unseenHashWords) + "."}
	}
	return Outcome{Name: LabelNotFound, Words: notFoundWords}
}

// NotSeenSentence says of payout hashes and transfer ids that this
// machine has not seen them, and what to do next: the one wording of
// every face. A hash is never repeated (it may be a key typed by mistake):
// it is "the payout hash you gave"; transfer ids are named, the first few.
func NotSeenSentence(ls ...Lookup) string {
	var what []string
	hashes := 0
	for _, l := range ls {
		if l.Kind != TransferID {
			hashes++
		} else if len(what) < notSeenNamed {
			what = append(what, "transfer id "+safetext.Quoted(safetext.Text(l.Text)))
		}
	}
	switch more := len(ls) - hashes - len(what); {
	case more == 1:
		what = append(what, "1 more transfer id")
	case more > 1:
		what = append(what, fmt.Sprintf("%d more transfer ids", more))
	}
	switch {
	case hashes == 1:
		what = append(what, "the payout hash you gave")
	case hashes > 1:
		what = append(what, fmt.Sprintf("the %d payout hashes you gave", hashes))
	}
	verb := "was"
	if len(ls) > 1 {
		verb = "were"
	}
	return strings.Join(what, ", ") + " " + verb + " not found: payout hashes and transfer ids are found " +
		"only among the withdrawals this machine has seen (its journal and watch board), and the service finds withdrawals by " +
		"quote id only; ask for the quote id: it is in the withdrawal's confirmation"
}

// notSeenNamed is how many transfer ids NotSeenSentence names.
const notSeenNamed = 3

// stateOutcome is a state of the service's, named as it is.
func stateOutcome(state string) Outcome {
	return Outcome{Name: state, Words: exchange.StateWords[state]}
}

// Outcome is what f's last answer means: its state, or what stands in
// for one: EXPIRED (an unexecuted quote past its expiry and the margin,
// on the service's clock), REFUSED (an unexecuted quote whose request this
// machine's journal saw refused), CREATED? and NOT FOUND? (answers that
// contradict the journal), NOT FOUND YET (a request sent unanswered, not
// known so far), NOT FOUND, and, before any answer, ASKING,
// RATE LIMITED or NO ANSWER. A record that claimed another payout than
// the quote signed says so after the words (asSigned).
func (f *Follow) Outcome() Outcome {
	o := f.outcome()
	if f.Known && f.Unlike != "" {
		o.Words += " " + f.Unlike
	}
	return o
}

func (f *Follow) outcome() Outcome {
	switch {
	case f.NotFoundYet():
		return f.notFoundYet()
	case f.NotFound && f.Refusal.Name != "":
		// The journal knows more than the service's 404: its refusal.
		return f.refusedHere(refusedUnknownWords)
	case f.NeverExecuted():
		return Outcome{Name: LabelExpired, Words: exchange.ExpiredWords}
	case f.Vanished:
		return Outcome{Name: LabelVanished, Words: "The service accepted this withdrawal on " + f.acceptedOn() +
			", and now does not know it: the funds may have been debited. Contact support with the quote id and transfer id" + f.again("; it is asked again") + "."}
	case f.NotFound:
		return notFoundOutcome(f.QuoteID)
	case !f.Known && errors.Is(f.Err, exchange.ErrRateLimited):
		return Outcome{Name: LabelRateLimited, Words: "The service's rate limit holds the asks: it is asked again after the pause."}
	case !f.Known && f.Err != nil:
		return Outcome{Name: LabelNoAnswer, Words: "The service could not be asked so far: it is asked again."}
	case !f.Known:
		return Outcome{Name: LabelAsking, Words: "Not answered yet."}
	case f.Last.State == exchange.StateCreated && !f.AcceptedAt.IsZero():
		// Never taken for a quote that expired unexecuted.
		return Outcome{Name: LabelContradicts, Words: "The service reports CREATED for a withdrawal it accepted on " +
			f.acceptedOn() + ": the funds may have been debited. Contact support with the quote id and transfer id."}
	case f.RefusedHere():
		return f.refusedHere(refusedHereWords)
	case f.Last.State == exchange.StateCreated && (f.Final || f.ExpiredUnexecuted()):
		return Outcome{Name: LabelExpired, Words: exchange.ExpiredWords}
	case f.Last.State == exchange.StateCreated && !f.Last.ServiceTime.IsZero() && f.Last.ServiceTime.After(f.quoteExpiry()):
		// Past its expiry, within the margin: a request on its way may
		// still execute it.
		until := clock(f.quoteExpiry().Add(ExecutableMargin))
		if f.QuoteExpiry.IsZero() {
			return Outcome{Name: exchange.StateCreated, Words: "Not executed so far: this computer's journal does not have the quote's expiry, so a request still on its way may execute it until " +
				until + f.again("; it is asked again until then") + "."}
		}
		return Outcome{Name: exchange.StateCreated, Words: "Not executed so far: the quote expired at " + clock(f.quoteExpiry()) +
			" by the service's clock, but a request still on its way may execute it until " + until + f.again("; it is asked again until then") + "."}
	}
	return stateOutcome(f.Last.State)
}

// refusedHere is the journal's REFUSED (with whose refusal it is: here)
// or NOT SENT of f's request, which the service's record does not contradict.
func (f *Follow) refusedHere(here string) Outcome {
	o := f.Refusal
	if o.Name == LabelRefused {
		o.Words += " " + here
	}
	return o
}

// notFoundYet words a not found of a request sent with no answer while
// its quote may still execute (LabelNotFoundYet).
func (f *Follow) notFoundYet() Outcome {
	until := "its quote's expiry is not in this machine's journal, so it may still execute"
	if !f.QuoteExpiry.IsZero() {
		until = "it may still execute until " + clock(f.QuoteExpiry.Add(ExecutableMargin)) + " by the service's clock"
	}
	return Outcome{Name: LabelNotFoundYet, Words: "Sent, no answer yet; not found so far: " + until +
		", so nothing is final" + f.again("; it is asked again") + ". Resuming it re-sends the same signed request (it cannot pay twice) or settles it."}
}

// again is said, the follow goes on asking: "" for an id asked once
// (AskedOnce), of which nothing more is asked.
func (f *Follow) again(said string) string {
	if f.AskedOnce {
		return ""
	}
	return said
}

func (f *Follow) acceptedOn() string { return f.AcceptedAt.UTC().Format("2006-01-02 15:04 UTC") }

// clock is a time of day in UTC, for the outcomes' words.
func clock(t time.Time) string { return t.UTC().Format("15:04:05 UTC") }

// RecordOutcome is what the journal's record of a withdrawal says became
// of it: UNANSWERED, EXPIRED, NOT SENT or REFUSED (with the reason
// journaled), or the last state journaled.
func RecordOutcome(r journal.Record) Outcome {
	switch {
	case !r.Answered:
		return Outcome{Name: LabelUnanswered, Words: unansweredWords}
	case r.State == "" && r.QuoteExpired:
		return Outcome{Name: LabelExpired, Words: exchange.ExpiredWords}
	case r.State == "" && r.NotSent:
		return Outcome{Name: LabelNotSent, Words: notSentWords, Reason: r.Error}
	case r.State == "":
		return Outcome{Name: LabelRefused, Words: refusedWords, Reason: r.Error}
	}
	return stateOutcome(r.State)
}

// NeverHappened is the outcome of a resumed withdrawal found never
// executed, why being what Withdrawer.JournalNeverHappened journals:
// journal.NeverPaid (EXPIRED), or the service's refusal (REFUSED).
func NeverHappened(why string) Outcome {
	return RecordOutcome(journal.Record{Answered: true, Error: why, QuoteExpired: why == journal.NeverPaid})
}

// Tally says how many of fs came to each outcome, in the order first met:
// "2 completed, 1 no answer" (one never answered is "no answer"). It is
// the one line a follow of several withdrawals ends with, in every face.
func Tally(fs []Follow) string {
	var names []string
	count := map[string]int{}
	for _, f := range fs {
		name := "no answer"
		if f.Known || f.NotFound {
			name = strings.ToLower(f.Outcome().Name)
		}
		if count[name] == 0 {
			names = append(names, name)
		}
		count[name]++
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%d %s", count[n], n)
	}
	return strings.Join(parts, ", ")
}

// ReceiveText is w's receive amount, "" when its record gives none: a
// receive_amount left out (SPEC.md §2.10) reads as zero, and "0 USDT" would
// say nothing is paid out. Every face draws the amount from here.
func ReceiveText(w exchange.Withdrawal) string {
	if w.ReceiveAmount.IsZero() {
		return ""
	}
	return w.ReceiveAmount.String()
}

// Particulars are what every face lists of f's record beside its outcome:
// its ids, chain, amount received (Filled from own, the journal's intent
// of it, noted so), payout hash and its explorer link in env, and when the
// service last updated it; a value "" is not known.
func (f Follow) Particulars(env config.Environment, own journal.Intent) []intent.Fact {
	w, updated := f.Last, ""
	chain, receive, token := f.Filled(own)
	if receive.Text != "" {
		receive.Text += " " + token
	}
	if !w.UpdatedAt.IsZero() {
		updated = w.UpdatedAt.UTC().Format("2006-01-02 15:04:05 UTC") // as the review says a quote's expiry
	}
	return []intent.Fact{{Label: "Quote id", Value: w.QuoteID}, {Label: "Transfer id", Value: w.TxID}, {Label: "Chain", Value: ChainText(chain), Note: chain.Note()},
		{Label: "Receive", Value: receive.Text, Note: receive.Note()}, {Label: "Payout hash", Value: w.WithdrawTxHash},
		{Label: "Explorer", Value: env.ExplorerTxURL(w.Chain, w.WithdrawTxHash)}, {Label: "Updated at", Value: updated, Note: "by the service"}}
}
