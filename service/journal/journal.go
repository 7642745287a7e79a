// Package journal is the withdrawal journal of D11: the append-only JSONL
// file written before a withdraw request leaves and after every answer, its
// one reader that cleans and shape-checks every line read back, and the
// record each withdrawal folds into (what History, `history`, doctor and
// resumption read).
package journal

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"

	"github.com/shopspring/decimal"
)

// Journal kinds, in the order a withdrawal writes them.
const (
	KindIntent   = "intent"   // written and fsynced before the request leaves
	KindAccepted = "accepted" // the 202 answer
	KindRejected = "rejected" // a final refusal: the withdrawal did not happen
	KindState    = "state"    // a state seen while following it
	// KindPrepared (prepared.go) comes before any of them, when a Transfer
	// is prepared for offline signing; a builder authorization's prepared
	// line too.
)

// Entry is one line of the withdrawal journal (D11). It holds the full
// withdraw request (the signature is public; no key material is ever written)
// so an unanswered request can be re-sent byte for byte.
type Entry struct {
	Time      time.Time `json:"time"`
	Kind      string    `json:"kind"`
	Env       string    `json:"env"`
	AccountID string    `json:"account_id,omitempty"`
	QuoteID   string    `json:"quote_id"`
	// Service is the service the line was written for (the environment's
	// base host and chain id, config.Service); lines of earlier versions
	// have none. On an intent line it is where the request was signed
	// for and sent: a resume sends it nowhere else.
	Service *config.Service           `json:"service,omitempty"`
	Request *exchange.WithdrawRequest `json:"request,omitempty"`
	Intent  *Intent                   `json:"intent,omitempty"`
	// Domain and Transfer are what the request's signature signed, on intent
	// lines (older journals have neither): the signer's own typed data, from
	// which the digest and the eth_signTypedData_v4 JSON are derived.
	Domain   *signer.Domain   `json:"domain,omitempty"`
	Transfer *signer.Transfer `json:"transfer,omitempty"`
	// Prepared is what a prepared line (KindPrepared) keeps to finish.
	Prepared *Prepared `json:"prepared,omitempty"`
	// Builder is a builder authorization, on its prepared and sent lines
	// (builder.go): not a withdrawal.
	Builder *BuilderAuth `json:"builder,omitempty"`
	State   string       `json:"state,omitempty"`
	TxHash  string       `json:"withdraw_tx_hash,omitempty"`
	// TxID is the service's transfer id, on accepted and state lines, so
	// a withdrawal is found by it (older lines have none).
	TxID  string `json:"tx_id,omitempty"`
	Error string `json:"error,omitempty"`
	// QuoteExpired, on a rejected line: the withdrawal never happened
	// because its quote expired unexecuted (the service refused it as
	// expired, or a resumed request was found never executed once its
	// quote had expired), not for a reason of the service's.
	QuoteExpired bool `json:"quote_expired,omitempty"`
	// NotSent, on a rejected line: the request never left this machine
	// (exchange.NotSent), so the service never saw it: not its refusal.
	NotSent bool `json:"not_sent,omitempty"`
}

// NeverPaid is the error journaled for an unanswered request whose quote
// expired and which the service never executed. A rejected line with it
// is a quote that expired unexecuted, also in journals written before
// QuoteExpired was.
const NeverPaid = "quote expired before the request was confirmed; nothing was paid"

// Intent describes what the user asked for, for the history screen.
type Intent struct {
	ToAddress     string          `json:"to_address"`
	Chain         string          `json:"chain"`
	TokenIn       string          `json:"token_in"`
	TokenOut      string          `json:"token_out"`
	PayAmount     decimal.Decimal `json:"pay_amount"`
	ReceiveAmount decimal.Decimal `json:"receive_amount"`
	ExpiresAt     time.Time       `json:"quote_expires_at"`
}

// Journal appends entries to a 0600 JSONL file, fsyncing each one.
type Journal struct {
	mu   sync.Mutex
	path string
	view *view // what was read of it, through its index; j.mu guards it
	// progress is told how far a long read of the journal into its index
	// has come (Progress).
	progress func(read, size int64)
}

// Progress has tell told, during a read of the journal into its index
// that is a megabyte or more from its end (the first read of a journal
// changed outside svcwallet, or of one whose index was lost), how many of
// its size bytes have been read, every megabyte and once at the end: a
// face shows it when the read takes long. Set it before the first read.
func (j *Journal) Progress(tell func(read, size int64)) { j.progress = tell }

// withdrawalKey is one withdrawal: the service's quote id of an account,
// whatever the environment it was reached by was called (Owner), so that
// the lines written through an old and a new name, or a proxy and the
// direct URL, fold into one record. An account's address is one account in
// any letter case (exchange.AccountKey): a line written as a service
// answered it in another case is still that withdrawal's.
type withdrawalKey struct{ account, quoteID string }

func keyOf(e Entry) withdrawalKey { return keyFor(e.AccountID, e.QuoteID) }

func keyFor(account, quoteID string) withdrawalKey {
	return withdrawalKey{exchange.AccountKey(account), quoteID}
}

// DefaultPath is journal.jsonl in the user's state directory
// (osguard.DirsFor: the one rule for every system).
func DefaultPath() string {
	d, err := osguard.UserDirs()
	if err != nil {
		return ""
	}
	return filepath.Join(d.State, osguard.JournalName)
}

// Open prepares the journal at path, creating its directory (0700, and
// owner-only on Windows).
// A journal that is a link, or that another user could change or swap, is
// refused (osguard.CheckPrivateFile): it decides what is sent again.
func Open(path string) (*Journal, error) {
	if err := osguard.MkdirPrivate(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("journal directory: %w", err)
	}
	if err := osguard.CheckPrivateFile(path); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Journal{path: path}, nil
}

// Path is where the journal lives.
func (j *Journal) Path() string { return j.path }

// Append writes one entry and fsyncs it before returning: a withdraw request
// is sent only after its intent is on disk.
func (j *Journal) Append(e Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.write(e)
}

// AppendState writes e, a state a follower learned, unless the journal's
// last answer for that withdrawal (same environment and account) is that
// state already, or a terminal one: the status screen, the board and the
// command line may all learn it, in this process or another, and it is
// recorded once: the read and the write hold the write lock. It reads
// that withdrawal's lines alone (linesOf).
func (j *Journal) AppendState(e Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	unlock, err := j.lockWrites(false, markWrite)
	if err != nil {
		return lockError(err)
	}
	defer unlock()
	id := idOf(keyOf(e))
	same, _, err := j.linesOf(func(*view, io.ReaderAt) ([]keyID, error) { return []keyID{id}, nil })
	if err != nil {
		return err
	}
	var f folder
	for _, l := range same {
		f.add(l.Entry)
	}
	last := ""
	for _, r := range f.records() { // one record at most
		last = r.State
	}
	// A terminal state is never left (SPEC.md §3): a late answer from a
	// slower follower must not reopen a finished withdrawal.
	if last == e.State || exchange.Terminal(last) {
		return nil
	}
	return j.writeHeld(e)
}

// UnmarshalJSON reads the journaled amounts as answers are read
// (exchange.WireAmount): bounded before they are parsed.
func (in *Intent) UnmarshalJSON(b []byte) error {
	type plain Intent
	var w struct {
		*plain
		PayAmount     exchange.WireAmount `json:"pay_amount"`
		ReceiveAmount exchange.WireAmount `json:"receive_amount"`
	}
	w.plain = (*plain)(in)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	return in.decodeAmounts(w.PayAmount, w.ReceiveAmount)
}

// decodeAmounts puts the amounts read as text in place, each bounded by
// its token's decimals.
func (in *Intent) decodeAmounts(pay, receive exchange.WireAmount) error {
	var err error
	if in.PayAmount, err = pay.Decode("pay amount", exchange.TokenDecimalsOf(in.TokenIn), false); err != nil {
		return err
	}
	in.ReceiveAmount, err = receive.Decode("receive amount", exchange.TokenDecimalsOf(in.TokenOut), false)
	return err
}
