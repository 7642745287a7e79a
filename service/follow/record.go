package follow

import (
	"cmp"
	"strconv"
	"time"

	"github.com/svcwallet/svcwallet/service/journal"
)

// Record is a withdrawal as every machine-readable output gives it: the
// JSON of status, history and withdraw, and the CSV of status, history
// and the board's export, whose columns are its JSON names in this order
// (CSVHeader). One shape, so a script reads them all alike; a field this
// machine does not know of a withdrawal is empty (omitted in JSON).
type Record struct {
	QuoteID string `json:"quote_id"`
	TxID    string `json:"tx_id,omitempty"` // the service's transfer id
	Env     string `json:"env"`
	// State is the service's own (SPEC.md §2.10), "" before an answer or
	// after a refusal; Outcome and Meaning are what every view names it.
	State          string `json:"state"`
	Outcome        string `json:"outcome"`
	Meaning        string `json:"meaning"`
	Chain          string `json:"chain,omitempty"`
	ToAddress      string `json:"to_address,omitempty"`
	TokenIn        string `json:"token_in,omitempty"`
	TokenOut       string `json:"token_out,omitempty"`
	PayAmount      string `json:"pay_amount,omitempty"`
	ReceiveAmount  string `json:"receive_amount,omitempty"`
	WithdrawTxHash string `json:"withdraw_tx_hash,omitempty"`
	ExplorerURL    string `json:"explorer_url,omitempty"`
	// StartedAt is when this machine sent it (its journal's); UpdatedAt
	// when its state last changed (the service's updated_at, else the
	// journal's last line); StateSeen when a follower here first saw
	// that state, LastChecked when it last asked. RFC 3339, UTC, whole
	// seconds.
	StartedAt   time.Time `json:"started_at,omitzero"`
	UpdatedAt   time.Time `json:"updated_at,omitzero"`
	StateSeen   time.Time `json:"state_seen,omitzero"`
	LastChecked time.Time `json:"last_checked,omitzero"`
	// Unanswered: its request got no answer yet (resume it); Finished:
	// nothing more will happen to it.
	Unanswered bool `json:"unanswered"`
	Finished   bool `json:"finished"`
	// Error is why the service refused it, as journaled.
	Error string `json:"error,omitempty"`
	// AccountID is the account that made it, as journaled: one machine's
	// journal may hold several accounts' withdrawals (history).
	AccountID string `json:"account_id,omitempty"`
}

// CSVHeader names the columns of Record.CSVRow: its JSON names.
var CSVHeader = []string{"quote_id", "tx_id", "env", "state", "outcome", "meaning", "chain", "to_address", "token_in", "token_out",
	"pay_amount", "receive_amount", "withdraw_tx_hash", "explorer_url", "started_at", "updated_at", "state_seen", "last_checked",
	"unanswered", "finished", "error", "account_id"}

// CSVRow is r as a CSV row (safetext.WriteCSV), in CSVHeader's columns.
func (r Record) CSVRow() []string {
	return []string{r.QuoteID, r.TxID, r.Env, r.State, r.Outcome, r.Meaning, r.Chain, r.ToAddress, r.TokenIn, r.TokenOut,
		r.PayAmount, r.ReceiveAmount, r.WithdrawTxHash, r.ExplorerURL, csvTime(r.StartedAt), csvTime(r.UpdatedAt),
		csvTime(r.StateSeen), csvTime(r.LastChecked), strconv.FormatBool(r.Unanswered), strconv.FormatBool(r.Finished), r.Error, r.AccountID}
}

// OutputTime is a time as every output writes it, JSON and CSV, records
// and the command line's sessions: UTC, whole seconds.
func OutputTime(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }

func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Record is what a follower knows of f in env: the last record the service
// gave, its name, and when it was seen and asked; with the journal's record
// of an own withdrawal (own, zero for another's), what was sent.
func (f Followed) Record(env string, own journal.Record) Record {
	o, w := f.Outcome(), f.Last
	r := Record{QuoteID: f.QuoteID, Env: env, Outcome: o.Name, Meaning: o.Sentence(), Finished: f.Final, Error: o.Reason,
		StateSeen: OutputTime(f.Since), LastChecked: OutputTime(f.LastChecked), StartedAt: OutputTime(own.Started)}
	if own.QuoteID == f.QuoteID {
		r.ToAddress, r.TokenIn, r.PayAmount = own.Intent.ToAddress, own.Intent.TokenIn, amountText(own.Intent.PayAmount.String(), own.Intent.TokenIn)
		r.TxID, r.AccountID, r.Unanswered = own.TxID, own.AccountID, own.Unanswered()
	}
	if f.Known {
		r.TxID = cmp.Or(w.TxID, r.TxID)
		r.State, r.Chain, r.TokenOut, r.ReceiveAmount = w.State, w.Chain, w.TokenOut, ReceiveText(w)
		r.WithdrawTxHash, r.UpdatedAt = w.WithdrawTxHash, OutputTime(w.UpdatedAt)
	}
	return r
}

// RecordOf is the journal's record of a withdrawal as a Record.
func RecordOf(r journal.Record) Record {
	o := RecordOutcome(r)
	return Record{QuoteID: r.QuoteID, TxID: r.TxID, Env: r.Env, State: r.State, Outcome: o.Name, Meaning: o.Sentence(),
		Chain: r.Intent.Chain, ToAddress: r.Intent.ToAddress, TokenIn: r.Intent.TokenIn, TokenOut: r.Intent.TokenOut,
		PayAmount: amountText(r.Intent.PayAmount.String(), r.Intent.TokenIn), ReceiveAmount: amountText(r.Intent.ReceiveAmount.String(), r.Intent.TokenOut),
		WithdrawTxHash: r.TxHash, StartedAt: OutputTime(r.Started), UpdatedAt: OutputTime(r.Updated),
		Unanswered: r.Unanswered(), Finished: r.Finished(), Error: r.Error, AccountID: r.AccountID}
}

// amountText is an amount of the journal's intent, "" when the journal
// holds none (no token named): a zero would read as one.
func amountText(amount, token string) string {
	if token == "" {
		return ""
	}
	return amount
}
