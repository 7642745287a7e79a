package exchange

import (
	"cmp"
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// The shape an API key has, held before one is sent (to log in, or to a
// deposit endpoint), given or read back.

// MaxAPIKey bounds an API key.
const MaxAPIKey = 512

// APIKeyShapeError is an API key that cannot be one, a copy that brought
// an invisible character along, say: not sent, to log in or to a deposit
// endpoint, where the service would only refuse it as not the account's.
// It names what is wrong and where, never the key.
type APIKeyShapeError struct {
	What   string // "the API key given", or the face's name for it
	Reason string // what of it cannot be a key's
}

func (e *APIKeyShapeError) Error() string {
	return cmp.Or(e.What, "the API key given") + " " + e.Reason + "; nothing was sent"
}

// CheckAPIKey holds an API key (given, or read back) to what one is: 1 to
// MaxAPIKey printable ASCII characters without spaces; an
// *APIKeyShapeError otherwise.
func CheckAPIKey(k string) error {
	if k == "" {
		return &APIKeyShapeError{Reason: "is empty: give the API key the exchange made for you"}
	}
	if len(k) > MaxAPIKey {
		return &APIKeyShapeError{Reason: fmt.Sprintf("is %d bytes long; an API key has at most %d: copy it alone", len(k), MaxAPIKey)}
	}
	at := 0
	for i := 0; i < len(k); {
		r, size := utf8.DecodeRuneInString(k[i:])
		i, at = i+size, at+1
		switch {
		case r > ' ' && r <= '~':
			continue
		case r == ' ':
			return &APIKeyShapeError{Reason: fmt.Sprintf("holds a space at position %d: API keys have none, delete it", at)}
		case r == utf8.RuneError && size == 1:
			return &APIKeyShapeError{Reason: fmt.Sprintf("holds a byte that is not text at position %d: copy the key again", at)}
		case safetext.Text(string(r)) == "":
			return &APIKeyShapeError{Reason: fmt.Sprintf("holds an invisible character U+%04X at position %d: delete it (it came with the paste)", r, at)}
		case unicode.IsLetter(r):
			return &APIKeyShapeError{Reason: fmt.Sprintf("holds a non-Latin look-alike (U+%04X) at position %d: retype that letter", r, at)}
		}
		return &APIKeyShapeError{Reason: fmt.Sprintf("holds a character U+%04X at position %d: API keys hold only ASCII, copy the key again", r, at)}
	}
	return nil
}

// ErrAPIKeyKeyShape is why an API key is not sent, to log in or to a
// deposit endpoint: it holds a private key's shape, a wallet's key given
// in its place (typed in the wrong field, the wrong variable), which the
// service would be sent as an API key.
var ErrAPIKeyKeyShape = errors.New("the API key given holds " + safetext.KeyShape + ", so it was not sent: give the API key the exchange made for you; a wallet's private key logs in by wallet signature, never as an API key")

// ErrAPIKeySecretShape is why an API key holding a wallet's secret in
// another shape (safetext.TypedSecret: a recovery phrase, a key's byte
// list, an extended private key) is not sent. It is an ErrAPIKeyKeyShape
// too, so every face words and clears it alike.
var ErrAPIKeySecretShape error = apiKeySecretError{}

type apiKeySecretError struct{}

func (apiKeySecretError) Error() string {
	return "the API key given has the shape of a wallet's recovery phrase, of a key written as its bytes or of an extended private key (xprv…), so it was not sent: give the API key the exchange made for you; a wallet logs in by its signature, never by its secret"
}

func (apiKeySecretError) Is(target error) bool { return target == ErrAPIKeyKeyShape }
