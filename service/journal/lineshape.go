package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"

	"github.com/ethereum/go-ethereum/common"
)

// A journal line is read back as an answer is: anyone who can write the
// file (or a bug) could have put anything in it, and what it holds is
// shown, copied, followed and re-sent. parseJournalLine is the one reader;
// Append writes only lines it reads back unchanged.

// maxJournalErrorLen bounds the error text of a refused withdrawal.
const maxJournalErrorLen = 1000

// ErrLine is a line the journal would not read back.
var ErrLine = errors.New("not a journal entry")

// hex32 is 0x and 64 hex digits: r, s, a digest.
func hex32(s string) bool {
	h, ok := strings.CutPrefix(s, "0x")
	return ok && safetext.HexDigits(h, 64)
}

// parseJournalLine reads one line into an entry, cleaned and shape-checked.
func parseJournalLine(line []byte) (Entry, error) {
	var e Entry
	if len(line) > maxJournalLine {
		return e, fmt.Errorf("%w: the line is %d bytes long (at most %d)", ErrLine, len(line), maxJournalLine)
	}
	var err error
	if !decodeFast(line, &e) {
		e = Entry{}
		err = exchange.Decode(line, &e)
	}
	if err == nil {
		e.upgrade()
		err = e.check()
	}
	var se *exchange.ShapeError
	switch {
	case errors.As(err, &se):
		return e, fmt.Errorf("%w: its %s %s", ErrLine, se.Field, se.Reason)
	case err != nil:
		return e, fmt.Errorf("%w: it is not the JSON of one", ErrLine)
	}
	return e, nil
}

// check shape-checks an entry read back and cleans its free text.
func (e *Entry) check() error {
	switch e.Kind {
	case KindIntent, KindAccepted, KindRejected, KindState, KindPrepared, KindBuilderSent:
	default:
		return exchange.NewShapeError("journal kind", "is not prepared, intent, accepted, rejected, state or builder_sent")
	}
	if e.Time.IsZero() {
		// Every line svcwallet writes is dated, and an acceptance is
		// known by its date (Record.AcceptedAt): the index would not be.
		return exchange.NewShapeError("journaled time", "is missing")
	}
	if err := e.checkBuilder(); err != nil {
		return err
	}
	if err := exchange.CheckID("quote id", e.QuoteID, !e.builderLine()); err != nil {
		return err
	}
	if err := exchange.CheckName("environment", e.Env); err != nil {
		return err
	}
	if err := exchange.CheckID("account id", e.AccountID, false); err != nil {
		return err
	}
	if e.Service != nil {
		if err := e.Service.Check(); err != nil {
			return exchange.NewShapeError("journaled service", "%s", err.Error())
		}
	}
	if e.State != "" {
		if err := exchange.CheckState("state", e.State); err != nil {
			return err
		}
	} else if e.Kind == KindState {
		// Read as a refusal, it would undo the acceptance before it.
		return exchange.NewShapeError("journaled state", "is missing on a state line")
	}
	if err := checkPayoutHash(e); err != nil {
		return err
	}
	if err := exchange.CheckID("transfer id", e.TxID, false); err != nil {
		return err
	}
	e.Error = safetext.Line(e.Error, maxJournalErrorLen)
	if e.QuoteExpired && e.Kind != KindRejected {
		return exchange.NewShapeError("journaled quote_expired", "is set on a line that is not a rejection")
	}
	if e.NotSent && (e.Kind != KindRejected || e.QuoteExpired) {
		return exchange.NewShapeError("journaled not_sent", "is set on a line that is not a rejection, or on an expired quote's")
	}
	if e.Request != nil {
		if err := checkRequest(e.Request, e.QuoteID); err != nil {
			return err
		}
	}
	if e.Intent != nil {
		if err := e.Intent.check(); err != nil {
			return err
		}
	}
	if err := e.checkPrepared(); err != nil {
		return err
	}
	return e.checkSigned()
}

// checkRequest holds a journaled request to what svcwallet sends: it may be
// re-sent byte for byte.
func checkRequest(r *exchange.WithdrawRequest, quoteID string) error {
	s := r.Signature
	switch {
	case r.QuoteID != quoteID:
		return exchange.NewShapeError("journaled request", "names another quote id than its entry")
	case !common.IsHexAddress(s.Signer) || len(s.Signer) != 42:
		return exchange.NewShapeError("journaled signer", "is not an EVM address")
	case !hex32(s.R) || !hex32(s.S):
		return exchange.NewShapeError("journaled signature", "r or s is not 0x and 64 hex digits")
	case s.V != 27 && s.V != 28:
		return exchange.NewShapeError("journaled signature", "v is not 27 or 28")
	case !safetext.DecimalDigits(s.Expiration, 19):
		return exchange.NewShapeError("journaled signature", "expiration is not unix nanoseconds")
	}
	return nil
}

// check holds a journaled intent to the shapes of a withdrawal choice.
func (in *Intent) check() error {
	for _, n := range []struct{ field, v string }{{"chain", in.Chain}, {"source token", in.TokenIn}, {"payout token", in.TokenOut}} {
		if err := exchange.CheckName(n.field, n.v); err != nil {
			return err
		}
	}
	if in.ToAddress != "" {
		if err := exchange.ValidateAddress(exchange.ChainTypeOfChain(in.Chain), in.ToAddress); err != nil {
			return exchange.NewShapeError("journaled destination", "is not %s address", exchange.Articled(exchange.ChainTypeLabel(exchange.ChainTypeOfChain(in.Chain))))
		}
	}
	return nil
}

// checkSigned holds the journaled typed data to the request it signed: a
// domain with a clean name, and a Transfer with the request's nonce and
// expiration. Addresses and integers have their shapes by their types.
func (e *Entry) checkSigned() error {
	if (e.Domain == nil) != (e.Transfer == nil) || (e.Transfer != nil && e.Request == nil && e.Kind != KindPrepared) {
		return exchange.NewShapeError("journaled typed data", "is not a domain and a transfer beside the request they signed")
	}
	if e.Transfer == nil {
		return nil
	}
	if !config.ValidDomainName(e.Domain.Name) {
		return exchange.NewShapeError("journaled domain name", "is empty, too long or holds control or invisible characters")
	}
	if e.Request == nil { // a prepared line: not signed yet
		return nil
	}
	sig := e.Request.Signature
	if e.Transfer.Nonce != sig.Nonce || strconv.FormatInt(e.Transfer.Expiration, 10) != sig.Expiration {
		return exchange.NewShapeError("journaled transfer", "has another nonce or expiration than its request's signature")
	}
	return nil
}

// checkRoundTrip refuses to write a line the reader would skip or read
// differently: what is written is what a later session finds.
func checkRoundTrip(line []byte) error {
	e, err := parseJournalLine(line)
	if err != nil {
		return err
	}
	again, err := json.Marshal(e)
	if err != nil || !bytes.Equal(again, line) {
		return fmt.Errorf("%w: it would not read back as written", ErrLine)
	}
	return nil
}

// checkPayoutHash holds a journaled payout hash, which is shown, copied and
// opened in an explorer, to a chain's hash shape as a board's kept record
// is: a state line names no chain, so here to any chain's as a status
// record naming none is (exchange.SomeChainTxHash), and to its own
// withdrawal's chain once the lines fold (fitHash). A failed or refunded
// withdrawal paid nothing out.
func checkPayoutHash(e *Entry) error {
	switch {
	case e.TxHash == "":
		return nil
	case e.Kind != KindState || e.State == exchange.StateFailed || e.State == exchange.StateRefunded:
		return exchange.NewShapeError("journaled payout hash", "is on a line that is no state line of a payout")
	}
	if exchange.SomeChainTxHash(e.TxHash) {
		return nil
	}
	return exchange.NewShapeError("journaled payout hash", "is no chain's transaction hash")
}

// fitHash drops the payout hash of a record whose chain's shape it does not
// have: it would be shown and opened as that chain's transaction.
func fitHash(r *Record) {
	if r.TxHash != "" && r.Intent.Chain != "" && exchange.ValidTxHash(exchange.ChainTypeOfChain(r.Intent.Chain), r.TxHash) != nil {
		r.TxHash = ""
	}
}
