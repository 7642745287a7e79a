package withdrawal

import (
	"errors"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Withdrawer is the one path a withdrawal's money takes, for the console
// and any command: sign, journal the intent with the whole typed message
// (fsynced, D11), send with the retries of D10, journal the answer; and
// the re-send of a journaled request that never got one. It is made by
// NewWithdrawer alone, so none signs without a journal.
type Withdrawer struct {
	client  *exchange.Client
	journal *journal.Journal // nil only in a dry run: then nothing is signed
	now     func() time.Time
	// bridgePins is where bridge funding addresses trusted on first use
	// are recorded (BridgePinsPath); "" records none.
	bridgePins  string
	allowRepeat bool
	dryRun      bool
}

// Setup is what a Withdrawer is made of (NewWithdrawer).
type Setup struct {
	Client *exchange.Client
	// Journal is where every withdrawal is written before its request
	// leaves (D11). Only a dry run may have none.
	Journal *journal.Journal
	Now     func() time.Time // our clock, the journal's; nil is time.Now
	// BridgePins is where bridge funding addresses trusted on first use are
	// recorded (BridgePinsPath); "" records none.
	BridgePins string
	// AllowRepeat signs a withdrawal even when an identical one got no
	// answer (Repeat.Unanswered), which is otherwise refused before
	// signing: the command line's --allow-repeat. The console never sets it.
	AllowRepeat bool
	// DryRun: what is made reviews, reads the journal when there is one
	// and journals what a follower learns, but signs and sends nothing
	// (Execute, Prepare and Submit refuse): it may have no journal.
	DryRun bool
}

// ErrNoJournal refuses to make, or to run, a Withdrawer that would sign
// without a journal: a request whose intent is not journaled first could
// not be resumed, and exactly once would rest on luck.
var ErrNoJournal = errors.New("no withdrawal journal to record it before it is sent: nothing was signed or sent")

// NewWithdrawer is the one way a Withdrawer is made (every face uses
// it): one that may sign has a journal, or it is refused (ErrNoJournal).
func NewWithdrawer(s Setup) (Withdrawer, error) {
	if s.Journal == nil && !s.DryRun {
		return Withdrawer{}, ErrNoJournal
	}
	if s.Now == nil {
		s.Now = time.Now
	}
	return Withdrawer{client: s.Client, journal: s.Journal, now: s.Now, bridgePins: s.BridgePins, allowRepeat: s.AllowRepeat, dryRun: s.DryRun}, nil
}

// errDryRun refuses to sign with a Withdrawer made for a dry run.
var errDryRun = errors.New("a dry run signs and sends nothing")

// maySign refuses what would sign in a dry run, or without a journal
// (ErrNoJournal: also a Withdrawer never made by NewWithdrawer).
func (w Withdrawer) maySign() error {
	switch {
	case w.dryRun:
		return errDryRun
	case w.journal == nil:
		return ErrNoJournal
	}
	return nil
}

// UnrecordedError is what of the service's answer to a withdrawal could
// not be written down (Sent.Unrecorded): its line in the journal (a full
// disk), which then shows the withdrawal unanswered, refusing an identical
// one, until a resume settles it with the identical request (which cannot
// pay twice); or the bridge address trusted on first use, which the next
// withdrawal then trusts on first use again. The answer itself stands.
type UnrecordedError struct {
	QuoteID string
	Journal error  // the answer's line could not be journaled
	Bridge  error  // the bridge address could not be recorded
	Address string // that bridge address
}

// unrecorded is the UnrecordedError of journalErr and pinErr, or nil
// when both are nil.
func unrecorded(quoteID string, journalErr, pinErr error, address string) *UnrecordedError {
	if journalErr == nil && pinErr == nil {
		return nil
	}
	return &UnrecordedError{QuoteID: quoteID, Journal: journalErr, Bridge: pinErr, Address: address}
}

func (e *UnrecordedError) Error() string {
	var parts []string
	if e.Journal != nil {
		parts = append(parts, "the journal could not record the service's answer to "+e.QuoteID+" ("+e.Journal.Error()+
			"): it shows the withdrawal unanswered, and refuses an identical one, until it is resumed (the identical request again, which cannot pay twice)")
	}
	if e.Bridge != nil {
		parts = append(parts, e.BridgeUnrecorded())
	}
	return strings.Join(parts, "; ")
}

// BridgeUnrecorded says the bridge funding address could not be recorded,
// and what that means, as every face says it; "" when it was.
func (e *UnrecordedError) BridgeUnrecorded() string {
	if e.Bridge == nil {
		return ""
	}
	return "the bridge funding address " + e.Address + " could not be recorded (" + e.Bridge.Error() + "): the next withdrawal trusts it on first use again"
}
