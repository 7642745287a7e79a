package follow

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// WatchlistFile is the name of the watch board's file in the state
// directory, next to the journal.
const WatchlistFile = "watchboard.json"

// Kept is what the board keeps of one quote id between runs, so a restart
// shows it at once and never asks a final one again: the last record the
// service gave (nil before one) as shown, with what it claimed against the
// quote signed (Claim, nil for none), that the service did not know it,
// when its state was first seen and when it was last asked.
type Kept struct {
	QuoteID  string               `json:"quote_id"`
	Record   *exchange.Withdrawal `json:"record,omitempty"`
	Claim    *Claim               `json:"claim,omitempty"`
	NotFound bool                 `json:"not_found,omitempty"`
	Since    time.Time            `json:"since,omitzero"`
	Checked  time.Time            `json:"checked,omitzero"`
	// As is the account it was followed as (Scheduler.Account); "" in a
	// file of an earlier version, asked as whichever login opens it.
	As string `json:"as,omitempty"`
}

// UnmarshalJSON also reads a bare quote id, as the file held before the
// records were kept. A record or claim that does not decode (an amount
// out of bounds) is dropped, not the file: its id is asked again.
func (k *Kept) UnmarshalJSON(b []byte) error {
	*k = Kept{}
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &k.QuoteID)
	}
	type plain Kept
	var w struct {
		*plain
		Record json.RawMessage `json:"record"`
		Claim  json.RawMessage `json:"claim"`
	}
	w.plain = (*plain)(k)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	if r := new(exchange.Withdrawal); len(w.Record) > 0 && json.Unmarshal(w.Record, r) == nil {
		k.Record = r
	}
	// Read as a record is, so its amount is bounded by its token's decimals.
	if c := new(exchange.Withdrawal); len(w.Claim) > 0 && string(w.Claim) != "null" && json.Unmarshal(w.Claim, c) == nil {
		k.Claim = &Claim{Chain: c.Chain, WithdrawTxHash: c.WithdrawTxHash, TokenOut: c.TokenOut, ReceiveAmount: c.ReceiveAmount}
	}
	return nil
}

// checked is k as read back: nothing from the disk is trusted, so an id
// of the wrong shape is refused (false); a claim that is not what asSigned
// keeps of the record shown (Claim.keptWith) is dropped; and a record that,
// as the service gave it (its claim put back), fails the checks of an
// answer (exchange.Withdrawal.CheckRead) or is another id's is dropped
// with its claim, the id kept: it is asked again.
func (k Kept) checked() (Kept, bool) {
	if exchange.CheckQuoteID(k.QuoteID) != nil {
		return Kept{}, false
	}
	if exchange.CheckID("account id", k.As, false) != nil {
		k.As = "" // not an account id: asked as whichever login opens it
	}
	if k.Claim != nil && (k.Record == nil || !k.Claim.keptWith(*k.Record)) {
		k.Claim = nil
	}
	if k.Record != nil {
		if given := k.Claim.over(*k.Record); given.QuoteID != k.QuoteID || given.CheckRead() != nil {
			k.Record, k.Claim = nil, nil
		}
	}
	return k, true
}

// MalformedID is a piece of text ParseQuoteIDs read that is not a quote id.
type MalformedID struct {
	Line int    // the line it is on, counted from 1
	Text string // as read: say it escaped (safetext.IDQuoted), never as is
	Err  error  // why it is not one (exchange.CheckQuoteID)
}

// NotQuoteID says that given, an id typed, pasted or piped, is not a quote
// id and why (exchange.CheckQuoteID's error), repeating it escaped
// (safetext.IDQuoted), in every face: cleaned, "ab" RLO "cd" read as
// "abcd", which passes the check it failed.
func NotQuoteID(given string, why error) error {
	return fmt.Errorf("%s is not a quote id: %w", safetext.IDQuoted(given), why)
}

// CheckGivenQuoteID checks id, one quote id a user gave (an argument), by
// exchange.CheckQuoteID, its refusal said as NotQuoteID says it: status
// and withdraw resume each checked then worded it.
func CheckGivenQuoteID(id string) error {
	if err := exchange.CheckQuoteID(id); err != nil {
		return NotQuoteID(id, err)
	}
	return nil
}

// Lookup is a payout hash or transfer id ParseQuoteIDs read: its quote id
// is found among what this machine has seen (Known.Resolve), never asked.
type Lookup struct {
	Line int    // the line it is on, counted from 1
	Text string // as read: a hash not found is never repeated (a key's shape)
	Kind IDKind
	At   int // how many quote ids came before it, so its own keeps its place
	// Linked: read from an explorer's link (TokenHash), so a transaction's
	// hash, never a quote id (Known.Find).
	Linked bool
}

// MaxIDsText bounds the text of ids read at once (`svcwallet status -`):
// a million ids, which take the budget of 5 requests a second over two
// days, fit in it; a log or a stream piped there by mistake (yes q-1)
// is refused once past it, never held whole in memory.
const MaxIDsText = 16 << 20

// ParseQuoteIDs reads quote ids as the watch board's field and `svcwallet
// status -` take them, so the two agree: a leading byte order mark is
// skipped; a line ends at \n, \r\n or \r; a #
// starts a comment to the end of its line (no quote id holds one); blank
// lines are skipped. A line holds one id, or with split (the board's
// field) any number, separated by spaces, tabs, commas or semicolons; a
// spreadsheet's or a ticket's row gives its one id (table.rowWords).
// A word in double quotes (a CSV export's field) is read without them, and
// a payout hash as one token (TokenHash: quoted, in brackets, followed by
// punctuation, or an explorer's link to it) as the hash.
// Duplicates are merged in first-seen order; payout hashes and transfer
// ids are returned apart (lookups), to be found here; what is not a quote
// id is returned apart too, so it can be said instead of followed. A line
// holding the shape of a private key, in a comment too, is malformed
// whole (exchange.ErrKeyShape), and so is every line a key split over
// lines touches (safetext.KeySpans): none of its halves is an id; a
// payout hash standing as one token is not a key's shape here
// (MaskHashes), nor is a line of several; bare hex ids that are a key's
// shape together are said as either (HexIDsError). So is every line a
// recovery phrase or a key's byte list touches (exchange.ErrSecretShape):
// none of its words or numbers is sent.
func ParseQuoteIDs(text string, split bool) (ids []string, lookups []Lookup, malformed []MalformedID) {
	seen := map[string]bool{}
	// A list saved by Notepad or a spreadsheet starts with a byte order
	// mark, unseen: it is not part of the first id.
	text = strings.TrimPrefix(text, "\ufeff")
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(text, "\n")
	keys := linesTouched(lines, safetext.KeySpans(MaskHashes(text)))
	secrets := secretLinesErrors(lines, safetext.WalletSecretSpans(text))
	hex := hexIDs(lines, keys)
	rows := newTable()
	var one [1]string
	var bare []rowHex // bare hex ids alone on a line or in a row's columns
	inRow := false    // one of them was read from a row
	for i, line := range lines {
		if keys[i] {
			malformed = append(malformed, MalformedID{Line: i + 1, Text: line, Err: cmp.Or(hex[i], exchange.ErrKeyShape)})
			continue
		}
		if secrets[i] != nil {
			malformed = append(malformed, MalformedID{Line: i + 1, Text: line, Err: secrets[i]})
			continue
		}
		line, _, _ = strings.Cut(line, "#")
		words, err := rows.rowWords(one[:], line, split)
		if err != nil {
			malformed = append(malformed, MalformedID{Line: i + 1, Text: line, Err: err})
			continue
		}
		for _, w := range words {
			w, linked := ReadID(w)
			if w == "" || seen[w] {
				continue
			}
			seen[w] = true
			if kind := KindOf(w); kind != QuoteID {
				lookups = append(lookups, Lookup{Line: i + 1, Text: w, Kind: kind, At: len(ids), Linked: linked})
				continue
			}
			if err := exchange.CheckQuoteID(w); err != nil {
				malformed = append(malformed, MalformedID{Line: i + 1, Text: w, Err: err})
				continue
			}
			if len(words) == 1 && hexID(w) > 0 {
				bare = append(bare, rowHex{line: i, at: len(ids), id: w})
				inRow = inRow || w != strings.Trim(line, " \t\",;")
			}
			ids = append(ids, w)
		}
	}
	if inRow {
		ids, lookups, malformed = withoutRowKeys(lines, bare, ids, lookups, malformed)
	}
	return ids, lookups, malformed
}

// boundCompared is called each time linesTouched compares a span's bound
// with a line's: TestRefusedLinesFoundByHalving holds their number to two
// halvings a span, where checking every line against every span took
// time growing with the square of the lines.
var boundCompared = func() {}

// linesTouched says, for each of lines (text split at \n), whether one of
// spans (byte ranges of text) touches it. Each span's lines are found by
// halving: every span against every line made a paste of 64,000 TRON
// payout hashes (a key's shape, one a line) take 10 s in the board's Update.
func linesTouched(lines []string, spans [][2]int) []bool {
	touched := make([]bool, len(lines))
	// depth[i] counts the spans from line i on, less those ended before:
	// a line is touched where their sum is above zero.
	depth := make([]int, len(lines)+1)
	for _, l := range spanLines(lines, spans) {
		depth[l[0]]++
		depth[l[1]]--
	}
	sum := 0
	for i := range lines {
		sum += depth[i]
		touched[i] = sum > 0
	}
	return touched
}

// spanLines is, for each of spans (byte ranges of text, lines joined at
// \n) that touches a line, the lines it touches [first, last), from 0.
func spanLines(lines []string, spans [][2]int) [][2]int {
	if len(spans) == 0 {
		return nil
	}
	starts, ends := make([]int, len(lines)), make([]int, len(lines))
	at := 0
	for i, l := range lines {
		starts[i], ends[i] = at, at+len(l)
		at += len(l) + 1
	}
	var out [][2]int
	for _, k := range spans {
		// The first line ending after the span's start, the first
		// starting at or after its end.
		first, _ := slices.BinarySearchFunc(ends, k[0], func(e, a int) int {
			boundCompared()
			if e <= a {
				return -1
			}
			return 1
		})
		last, _ := slices.BinarySearchFunc(starts, k[1], func(s, b int) int {
			boundCompared()
			return cmp.Compare(s, b)
		})
		if first < last {
			out = append(out, [2]int{first, last})
		}
	}
	return out
}

// SecretLinesError is why each line of a wallet secret's shape is refused
// (exchange.ErrSecretShape, which it is): the secret is on lines First to
// Last, counted from 1, which secrets overlapping on a line share. Two
// secrets on lines next to each other are two.
type SecretLinesError struct{ First, Last int }

func (e *SecretLinesError) Error() string { return exchange.ErrSecretShape.Error() }

func (e *SecretLinesError) Unwrap() error { return exchange.ErrSecretShape }

// secretLinesErrors is, for each of lines, the *SecretLinesError of the
// secret among spans on it, nil for a line none touches.
func secretLinesErrors(lines []string, spans [][2]int) []error {
	out := make([]error, len(lines))
	ranges := spanLines(lines, spans)
	slices.SortFunc(ranges, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	for i := 0; i < len(ranges); {
		first, last := ranges[i][0], ranges[i][1]
		for i++; i < len(ranges) && ranges[i][0] < last; i++ {
			last = max(last, ranges[i][1]) // sharing a line: one secret
		}
		e := &SecretLinesError{First: first + 1, Last: last}
		for l := first; l < last; l++ {
			out[l] = e
		}
	}
	return out
}

// Secrets are the lines of each wallet secret refused in the run of lines
// next to each other, bad[0]'s first, that are all refused for one
// (SecretLinesError): a phrase one word a line is one secret, a key in
// base64 on the line after it another. Nil when bad[0] is refused for
// something else.
func Secrets(bad []MalformedID) []SecretLinesError {
	var out []SecretLinesError
	for _, m := range bad {
		var e *SecretLinesError
		if !errors.As(m.Err, &e) || len(out) > 0 && m.Line > out[len(out)-1].Last+1 {
			break
		}
		if len(out) == 0 || *e != out[len(out)-1] {
			out = append(out, *e)
		}
	}
	return out
}

// SecretsSaid is the refusal of a text whose first refused line is a
// wallet secret's (Secrets), naming the lines of each, never repeating
// them: "lines 1 to 12 are one wallet secret, not quote ids: it has the
// shape…", "lines 1 to 12 and line 13 are 2 wallet secrets, …: each
// has…". False for a secret on one line alone, said as its line is, or
// none.
func SecretsSaid(bad []MalformedID) (string, bool) {
	secrets := Secrets(bad)
	switch {
	case len(secrets) == 0, len(secrets) == 1 && secrets[0].First == secrets[0].Last:
		return "", false
	case len(secrets) == 1:
		return fmt.Sprintf("lines %d to %d are one wallet secret, not quote ids: %s", secrets[0].First, secrets[0].Last, exchange.SecretsShapeWords(1)), true
	}
	each := make([]string, len(secrets))
	for i, s := range secrets {
		each[i] = fmt.Sprintf("line %d", s.First)
		if s.Last > s.First {
			each[i] = fmt.Sprintf("lines %d to %d", s.First, s.Last)
		}
	}
	return fmt.Sprintf("%s and %s are %d wallet secrets, not quote ids: %s", strings.Join(each[:len(each)-1], ", "), each[len(each)-1],
		len(secrets), exchange.SecretsShapeWords(len(secrets))), true
}

// unquoted is w without the double quotes a spreadsheet's CSV export puts
// around a field; a lone or unmatched quote stays, and the id is refused.
func unquoted(w string) string {
	if len(w) >= 2 && w[0] == '"' && w[len(w)-1] == '"' {
		return w[1 : len(w)-1]
	}
	return w
}

// MinTypedIDLen is the fewest characters of an id typed or pasted into a
// field among other text, and MinTypedIDRun the longest run of letters and
// digits of one without a digit (CheckTypedID).
const (
	MinTypedIDLen = 8
	MinTypedIDRun = 20
)

// ErrTypedWord is why a word typed or pasted into the board's field is not
// taken for a quote id: it is not repeated, since it may be a passphrase
// or a line meant for another window.
var ErrTypedWord = fmt.Errorf("quote ids are generated: at least %d letters, digits, '.', '_', ':' and '-' with a digit, or a run of %d letters; words typed here are not sent or kept",
	MinTypedIDLen, MinTypedIDRun)

// CheckTypedID checks a piece ParseQuoteIDs read from the board's field:
// a generated id has at least MinTypedIDLen characters and a digit, or a
// run of MinTypedIDRun letters (random letters, as the sandbox's
// q-… ids), so prose, a shell line or a passphrase typed there by mistake
// (correct horse battery) is refused (ErrTypedWord) before any request
// or save. An id this account's journal holds is the caller's to take.
func CheckTypedID(id string) error {
	run, longest := 0, 0
	for _, r := range id {
		if r >= '0' && r <= '9' {
			if len(id) >= MinTypedIDLen {
				return nil
			}
			break
		}
		if r == '-' || r == '_' || r == '.' || r == ':' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	if longest >= MinTypedIDRun {
		return nil
	}
	return ErrTypedWord
}
