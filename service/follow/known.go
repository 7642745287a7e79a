package follow

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// Known is the payout hashes and transfer ids this machine has seen, each
// with every withdrawal seen with it: from the journal (AddRecord) and the
// board's answers (AddWithdrawal, AddKept). One payout may pay several
// withdrawals (a bridge batching them), so a hash may name several.
type Known map[string][]Sighting

// Sighting is a withdrawal seen with an id: its quote id, and As, the account
// the watch board followed it as when another than the one looking ("").
type Sighting struct{ QuoteID, As string }

// knownKey is how an id is kept: transfer ids in lower case, and hex
// payout hashes as their 64 digits in lower case, so that a TRON payout's
// hash (no 0x) is found written with 0x, the shape that is never taken
// for a private key.
func knownKey(id string) string {
	switch {
	case IsPayoutHash(id):
		return strings.ToLower(id[2:])
	case safetext.HexDigits(id, 64), KindOf(id) == TransferID:
		return strings.ToLower(id)
	}
	return id
}

// AddRecord learns a journal record's payout hash and transfer id.
func (k Known) AddRecord(r journal.Record) {
	k.add(r.TxHash, Sighting{QuoteID: r.QuoteID})
	k.add(r.TxID, Sighting{QuoteID: r.QuoteID})
}

// AddWithdrawal learns a status record's payout hash and transfer id.
func (k Known) AddWithdrawal(w exchange.Withdrawal) {
	k.add(w.WithdrawTxHash, Sighting{QuoteID: w.QuoteID})
	k.add(w.TxID, Sighting{QuoteID: w.QuoteID})
}

// AddKept learns a board row's record, as account's when the board
// followed it as account or as no one named, else as the account it was
// followed as (Kept.As): never asked as this one, whose service does not
// find another account's withdrawal.
func (k Known) AddKept(kept Kept, account string) {
	if kept.Record == nil {
		return
	}
	s := Sighting{QuoteID: kept.Record.QuoteID}
	if otherAccount(kept.As, account) {
		s.As = kept.As
	}
	k.add(kept.Record.WithdrawTxHash, s)
	k.add(kept.Record.TxID, s)
}

func (k Known) add(id string, s Sighting) {
	if id == "" || s.QuoteID == "" {
		return
	}
	key := knownKey(id)
	for i, was := range k[key] {
		if was.QuoteID == s.QuoteID {
			if was.As != "" && s.As == "" { // seen as this account too
				k[key][i].As = ""
			}
			return
		}
	}
	k[key] = append(k[key], s)
}

// Found is what an id given names: the quote ids to ask (Seen: of the
// withdrawals seen here with it, every one, as a payout shared by several
// names them all; else the id itself, asked as the quote id it may be),
// and Others, those seen with it followed as another account, not asked.
type Found struct {
	QuoteIDs []string
	Others   []Sighting
	Seen     bool
}

// Said says what name (a payout hash or transfer id, as a face names it)
// was found to be: several withdrawals are said to be several, and one
// followed as another account names that account, never passed off as
// the one asked about.
func (f Found) Said(name string) string {
	var parts []string
	switch n := len(f.QuoteIDs); {
	case n == 1:
		parts = append(parts, name+" is withdrawal "+f.QuoteIDs[0])
	case n > 1:
		parts = append(parts, fmt.Sprintf("%s is %d withdrawals, paid out together: %s", name, n, strings.Join(f.QuoteIDs, ", ")))
	}
	for i, o := range f.Others {
		lead := "withdrawal " + o.QuoteID
		if i == 0 && len(parts) == 0 {
			lead = name + " is withdrawal " + o.QuoteID
		} else if i == 0 {
			lead = "also withdrawal " + o.QuoteID
		}
		parts = append(parts, lead+", which the watch board followed as account "+o.As+": log in as that account to look it up")
	}
	return strings.Join(parts, "; ")
}

// NotSeenError is a payout hash or transfer id this machine has not seen:
// it is not asked of the service, which finds withdrawals by quote id
// only.
type NotSeenError struct{ Kind IDKind }

func (e *NotSeenError) Error() string {
	if e.Kind == PayoutHash {
		return "no withdrawal this machine has seen has this payout hash"
	}
	return "no withdrawal this machine has seen has this transfer id"
}

// Resolve is the quote id id names: a payout hash or transfer id k knows
// gives its withdrawal's (found true), any other id of theirs' shape a
// *NotSeenError, and a quote id itself. A SOLANA payout hash's shape not
// seen here is asked as a quote id: SPEC.md gives a quote_id no shape
// (§2.9, §4.10 takes quote_id alone), so one may be base58 of 86 to 88
// characters, and neither it nor a payout hash seen here is lost. A
// SOLANA private key, of the same shape, is a *NotSeenError as before:
// never sent. A quote id found that own reports a credential of the
// session's (exchange.Client.OwnSecret: a planted journal or board file
// pairing a transfer id with the API key) is not seen: never said nor asked.
func (k Known) Resolve(id string, own func(string) bool) (Found, error) {
	if seen, ok := k[knownKey(id)]; ok && id != "" {
		var f Found
		for _, s := range seen {
			switch {
			case own(s.QuoteID):
				return Found{}, &NotSeenError{Kind: KindOf(id)}
			case s.As != "":
				f.Others = append(f.Others, s)
			default:
				f.QuoteIDs = append(f.QuoteIDs, s.QuoteID)
			}
		}
		f.Seen = true
		return f, nil
	}
	if isSolanaSignature(id) && !isSolanaKeypair(id) && exchange.CheckQuoteID(id) == nil {
		return Found{QuoteIDs: []string{id}}, nil
	}
	if kind := KindOf(id); kind != QuoteID {
		return Found{}, &NotSeenError{Kind: kind}
	}
	return Found{QuoteIDs: []string{id}}, nil
}

// Find is Resolve of l's text (own as Resolve's); a SOLANA signature read from an explorer's
// link (l.Linked) not seen here is a *NotSeenError: a transaction's, it is
// no quote id, and asking it would send part of the link.
func (k Known) Find(l Lookup, own func(string) bool) (Found, error) {
	f, err := k.Resolve(l.Text, own)
	if l.Linked && !f.Seen && err == nil {
		return Found{}, &NotSeenError{Kind: l.Kind}
	}
	return f, err
}

// KnownHere is what this machine has seen of one account's withdrawals on
// its service (o): its journal's records (none when j is nil) and what the
// watch board kept in its file beside the journal, a row the board
// followed as another account known as that account's (AddKept). What
// cannot be read is not known.
func KnownHere(j *journal.Journal, o journal.Owner) Known {
	known := Known{}
	path := journal.DefaultPath()
	if j != nil {
		path = j.Path()
		recs, _, _ := j.AccountRecords(o)
		for _, r := range recs {
			known.AddRecord(r)
		}
	}
	kept, _ := (&WatchFile{Path: filepath.Join(filepath.Dir(path), WatchlistFile), Env: o.Env}).Load()
	for _, k := range kept {
		known.AddKept(k, o.AccountID)
	}
	return known
}

// Name is how the faces name l: a payout hash shortened (never whole: it
// may be a key's shape), a transfer id as given.
func (l Lookup) Name() string {
	if l.Kind == PayoutHash {
		if len(l.Text) <= 13 {
			return "payout hash " + l.Text
		}
		return "payout hash " + l.Text[:6] + "…" + l.Text[len(l.Text)-4:]
	}
	return "transfer id " + l.Text
}
