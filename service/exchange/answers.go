package exchange

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"
)

// Every answer the client decodes is cleaned and shape-checked here, once,
// before anything else sees it (the "clean boundary"): free text is Cleaned
// and bounded; identifiers, states, hashes, addresses, amounts and times are
// checked for their shape and the answer is refused when one does not fit.

// maxIDLen bounds quote and transfer ids; maxTextLen bounds free text.
const (
	maxIDLen   = 128
	maxTextLen = 200
)

// maxQuoteAhead is how far past the server's clock a quote may claim to
// expire: quotes live about a minute (SPEC.md §3), so a later expiry is a
// broken or hostile server.
const maxQuoteAhead = 10 * time.Minute

// answer is a decoded response body that can clean and check itself; now is
// the server's clock at the answer (its Date header) or, without one, ours.
type answer interface {
	cleanAnswer(now time.Time) error
}

// ShapeError is an answer refused because a field does not have its shape.
type ShapeError struct {
	Field  string
	Reason string
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("the service sent %s that %s; nothing was used from that answer: try again, and tell support if it persists", Articled(e.Field), e.Reason)
}

// NewShapeError refuses an answer (or a line read back) whose field does not
// have its shape.
func NewShapeError(field, format string, a ...any) error {
	return &ShapeError{Field: field, Reason: fmt.Sprintf(format, a...)}
}

// CheckID checks an identifier the service sends (quote, transfer,
// account, sub-account ids; chain and token names): a token of 1 to 128
// letters, digits, '.', '_', ':' and '-'. Nothing a shell, a CSV or a list
// parser gives a meaning to ($, ;, ',', quotes, spaces) can be in one, so an
// id is safe to show, copy, journal and follow.
func CheckID(field, id string, required bool) error {
	switch {
	case id == "" && required:
		return NewShapeError(field, "is empty")
	case len(id) > maxIDLen:
		return NewShapeError(field, "is %d characters long (at most %d)", len(id), maxIDLen)
	case !safetext.IsToken(id):
		return NewShapeError(field, "holds a character other than letters, digits, '.', '_', ':' and '-'")
	}
	return nil
}

// checkAnswerQuoteID holds a quote id an answer carries to CheckID and to
// the secret shapes CheckQuoteID refuses in one a user gives
// (safetext.SecretIn, the one rule): the spec gives a quote id no shape,
// but one of a key's or a recovery phrase's (legal-winner-…) would be
// quoted, signed and journaled, then refused by status and resume.
func checkAnswerQuoteID(id string) error {
	if err := CheckID("quote id", id, true); err != nil {
		return err
	}
	switch safetext.SecretIn(id) {
	case safetext.KeySecret:
		return NewShapeError("quote id", "has "+safetext.KeyShape+", which svcwallet never sends")
	case safetext.PhraseSecret:
		return NewShapeError("quote id", "has "+secretShape+", which svcwallet never sends")
	}
	return nil
}

// ErrKeyShape is why text a user gave as ids is refused whole when it
// holds the shape of a private key (safetext.HoldsKeyShape): never sent, and
// not repeated, since it may be a key pasted in the wrong place.
var ErrKeyShape = errors.New("it holds " + safetext.KeyShape + ": it is not sent and not shown")

// ErrSecretShape is why text a user gave as ids is refused whole when it
// holds the shape of a wallet's recovery phrase or of a key written as its
// bytes (safetext.HoldsWalletSecretShape): split at spaces or commas, each
// piece would be sent as an id. It is an ErrKeyShape too, so every face
// that never repeats a key's shape never repeats it.
var ErrSecretShape error = secretShapeError{}

type secretShapeError struct{}

func (secretShapeError) Error() string { return SecretsShapeWords(1) }

// SecretsShapeWords is ErrSecretShape's words said of n secrets at once:
// "it has the shape…" of one, "each has…" of several.
func SecretsShapeWords(n int) string {
	if n == 1 {
		return "it has " + secretShape + ": it is not sent and not shown"
	}
	return "each has " + secretShape + ": none is sent or shown"
}

// secretShape is the shape safetext.SecretIn calls a PhraseSecret, in the
// words every refusal of it says.
const secretShape = "the shape of a wallet's recovery phrase (12 or more words of 3 to 8 letters, or of a BIP-39 word list) or of a key written as its bytes (32 or more numbers up to 255, as a SOLANA keypair file) or in base64, or of an extended private key (xprv…)"

func (secretShapeError) Is(target error) bool { return target == ErrKeyShape }

// SecretShapeError is why text holding a secret of kind is refused
// (ErrKeyShape, ErrSecretShape), nil for none.
func SecretShapeError(kind safetext.Secret) error {
	switch kind {
	case safetext.KeySecret:
		return ErrKeyShape
	case safetext.PhraseSecret:
		return ErrSecretShape
	}
	return nil
}

// ErrShortened is why an id holding … is not one: screens shorten long
// ids and hashes so, and one typed from a screen was told only of a
// character it may not hold.
var ErrShortened = errors.New("it is shortened (it holds …), as screens show a long id or hash: give it whole, copied rather than typed from a screen")

// CheckQuoteID checks a quote id a user gave (an argument, a pasted or
// piped list) by the rule every answer's quote id is held to, so an id that
// could never be answered is refused before any request.
func CheckQuoteID(id string) error {
	if err := SecretShapeError(safetext.SecretIn(id)); err != nil {
		return err
	}
	switch {
	case id == "":
		return errors.New("it is empty")
	case len(id) > maxIDLen:
		return fmt.Errorf("it is %d characters long; quote ids have at most %d", len(id), maxIDLen)
	case strings.ContainsAny(id, " \t"):
		return errors.New("it holds a space; quote ids are letters, digits, '.', '_', ':' and '-'")
	case strings.Contains(id, "…"):
		return ErrShortened
	case !safetext.IsToken(id):
		return errors.New("it holds a character other than letters, digits, '.', '_', ':' and '-'")
	}
	return nil
}

// CheckName checks a chain or token name: short, printable, no spaces.
func CheckName(field, name string) error {
	if len(name) > safetext.MaxNameLen {
		return NewShapeError(field, "is %d characters long (at most %d)", len(name), safetext.MaxNameLen)
	}
	return CheckID(field, name, false)
}

// ValidState reports whether s is one of the six states of SPEC.md §2.10.
func ValidState(s string) bool {
	switch s {
	case StateCreated, StateSubmitted, StateSending, StateCompleted, StateFailed, StateRefunded:
		return true
	}
	return false
}

// CheckState refuses a state other than the six of SPEC.md §2.10.
func CheckState(field, s string) error {
	if !ValidState(s) {
		return NewShapeError(field, "is not one of CREATED, SUBMITTED, SENDING, COMPLETED, FAILED, REFUNDED")
	}
	return nil
}

// ChainTypeOfChain tells a chain's type from its service name (SPEC.md §2.7:
// the Solana and Tron chains carry their name, the rest are EVM), for the
// answers that name a chain without its type.
func ChainTypeOfChain(chain string) string {
	if t := namedChainType(chain); t != "" {
		return t
	}
	return ChainTypeEVM
}

// evmChainNames are the EVM chains SPEC.md §2.7 names, whose type a name
// alone settles; other names (a staging list's) leave it to the chain id.
var evmChainNames = []string{"ARBITRUM", "BASE", "BSC", "KAIA", "POLYGON", "BASE_SEPOLIA", "BSC_TEST", "KAIA_TEST", "POLYGON_TEST"}

// namedChainType is the type a chain's name settles (SPEC.md §2.7): SOLANA*
// and TRON* chains, and the EVM chains it lists; "" for any other name.
func namedChainType(chain string) string {
	switch c := strings.ToUpper(chain); {
	case strings.HasPrefix(c, "SOLANA"):
		return ChainTypeSolana
	case strings.HasPrefix(c, "TRON"):
		return ChainTypeTron
	case slices.Contains(evmChainNames, c):
		return ChainTypeEVM
	}
	return ""
}

// chainTypeOfChainID tells a chain's type from its native chain id (SPEC.md
// §2.5: numeric for EVM chains, a name such as solana or tron otherwise); ""
// when it names no type svcwallet can check.
func chainTypeOfChainID(id string) string {
	switch l := strings.ToLower(id); {
	case id != "" && strings.Trim(id, "0123456789") == "":
		return ChainTypeEVM
	case strings.HasPrefix(l, "solana"):
		return ChainTypeSolana
	case strings.HasPrefix(l, "tron"):
		return ChainTypeTron
	}
	return ""
}

// ValidTxHash checks a payout transaction hash against its chain type:
// 0x + 64 hex (EVM), 64 hex (Tron), base58 of a 64-byte signature (Solana).
func ValidTxHash(chainType, h string) error {
	switch chainType {
	case ChainTypeEVM:
		if strings.HasPrefix(h, "0x") && safetext.HexDigits(h[2:], 64) {
			return nil
		}
		return errors.New("is not 0x and 64 hex digits")
	case ChainTypeTron:
		if safetext.HexDigits(h, 64) {
			return nil
		}
		return errors.New("is not 64 hex digits")
	case ChainTypeSolana:
		if len(h) <= 90 {
			if b, err := base58.Decode(h); err == nil && len(b) == 64 {
				return nil
			}
		}
		return errors.New("is not the base58 of a 64-byte signature")
	}
	return fmt.Errorf("belongs to an unknown chain type %q", chainType)
}

// SomeChainTxHash reports whether h has the shape of a payout hash on a
// chain of some type svcwallet knows (ValidTxHash): what a hash is held to
// where no chain is named.
func SomeChainTxHash(h string) bool {
	return slices.ContainsFunc([]string{ChainTypeEVM, ChainTypeTron, ChainTypeSolana}, func(t string) bool { return ValidTxHash(t, h) == nil })
}

func (r *LoginResult) cleanAnswer(time.Time) error {
	r.Status, r.Location = safetext.Line(r.Status, maxTextLen), safetext.Line(r.Location, maxTextLen)
	if !common.IsHexAddress(r.FundingAccountAddress) || !strings.HasPrefix(r.FundingAccountAddress, "0x") {
		return NewShapeError("funding account address", "is not an EVM address")
	}
	return CheckID("sub-account id", r.SubAccountID, false)
}

func (r *BuilderAuthorizeResult) cleanAnswer(time.Time) error {
	if r.ErrorCode != 0 {
		// Not a ShapeError: the service may have refused it, not taken it.
		return fmt.Errorf("an error's body (code %d)", r.ErrorCode)
	}
	// The key is copied and pasted into configs and shells: a token, like every id.
	return CheckID("builder API key", r.APIKey, false)
}

func (q *Quote) cleanAnswer(now time.Time) error {
	if err := checkAnswerQuoteID(q.QuoteID); err != nil {
		return err
	}
	// Every command printed to follow or resume it names it as a word of
	// its own, where a leading '-' reads as a flag (status --help --watch).
	// Held of a new quote only: a withdrawal made before, journaled or on
	// the board, is still followed.
	if strings.HasPrefix(q.QuoteID, "-") {
		return NewShapeError("quote id", "begins with '-', which the commands naming it would read as a flag")
	}
	// How much may be paid out depends on the tokens, which only the
	// request names: Client.Quote holds the quote to its bound (addsUp).
	switch q.Speed {
	case SpeedFast, SpeedSlow:
	default:
		return NewShapeError("quote speed", "is not fast or slow")
	}
	if q.ExpiresAt.IsZero() {
		return NewShapeError("quote expiry", "is missing")
	}
	if q.ExpiresAt.After(now.Add(maxQuoteAhead)) {
		return NewShapeError("quote expiry", "is more than %s ahead of the service's clock (quotes live about a minute)", maxQuoteAhead)
	}
	return nil
}

func (a *WithdrawAccepted) cleanAnswer(time.Time) error {
	if err := checkAnswerQuoteID(a.QuoteID); err != nil {
		return err
	}
	if err := CheckID("transfer id", a.TxID, false); err != nil {
		return err
	}
	if err := CheckState("state", a.State); err != nil {
		return err
	}
	// Always SUBMITTED on acceptance (SPEC.md §4.9): the funds left, so a
	// final state named would end the follow before any ask (REFUNDED:
	// "you can withdraw again").
	a.State = StateSubmitted
	return nil
}

// CheckRead holds a withdrawal record read back from disk (the watch
// board keeps the last one of each id) to the checks of an answer.
func (w *Withdrawal) CheckRead() error { return w.cleanAnswer(time.Time{}) }

func (w *Withdrawal) cleanAnswer(time.Time) error {
	if err := checkAnswerQuoteID(w.QuoteID); err != nil {
		return err
	}
	if err := CheckID("transfer id", w.TxID, false); err != nil {
		return err
	}
	if err := CheckState("withdrawal state", w.State); err != nil {
		return err
	}
	if err := CheckName("chain", w.Chain); err != nil {
		return err
	}
	if err := CheckName("payout token", w.TokenOut); err != nil {
		return err
	}
	// The payout hash is what support and the user check on the chain: a
	// COMPLETED record must carry one (SPEC.md §2.10: set once COMPLETED)
	// of its chain's shape, and a failed or refunded one, which paid nothing
	// out, none. The record's chain is not said to be required: one naming
	// none is taken, paid, with a hash of a shape a chain svcwallet knows
	// gives, not held to an EVM one's (follow holds it to the chain signed).
	switch {
	case w.State == StateCompleted && w.WithdrawTxHash == "":
		return NewShapeError("COMPLETED record", "carries no payout hash")
	case (w.State == StateFailed || w.State == StateRefunded) && w.WithdrawTxHash != "":
		return NewShapeError(w.State+" record", "carries a payout hash, though nothing was paid out")
	case w.WithdrawTxHash != "" && w.Chain == "":
		if !SomeChainTxHash(w.WithdrawTxHash) {
			return NewShapeError("payout hash", "is of no chain's shape (0x and 64 hex digits, 64 hex digits, or the base58 of a 64-byte signature), and the record names no chain")
		}
	case w.WithdrawTxHash != "":
		if err := ValidTxHash(ChainTypeOfChain(w.Chain), w.WithdrawTxHash); err != nil {
			return NewShapeError("payout hash", "%v for %s", err, ChainTypeLabel(ChainTypeOfChain(w.Chain)))
		}
	}
	return nil
}
