package exchange

import (
	"errors"

	"github.com/svcwallet/svcwallet/signer"
)

// SignFailure words an error of signer.Sign for the user, saying that
// nothing was sent: a key source's refusal (clef's "request denied", a
// signing command that exited non-zero) or its failure, a wait cancelled
// or run out, a signature by another key than expected. The source's own
// errors are already one clean line; the cause is kept for errors.Is.
func SignFailure(err error) error {
	var se *signer.SourceError
	var we *signer.WaitError
	switch {
	case errors.As(err, &we):
		return UserError{Text: "Not signed: " + err.Error() + "; nothing was sent", Cause: err}
	case errors.As(err, &se) && se.Refused:
		return UserError{Text: "Not signed: " + err.Error() + "; nothing was sent", Cause: err}
	case errors.As(err, &se):
		return UserError{Text: "Signing failed: " + err.Error() + "; nothing was sent", Cause: err}
	case errors.Is(err, signer.ErrWrongSigner):
		return UserError{Text: "Refused the signature: " + err.Error() + "; nothing was sent", Cause: err}
	}
	return UserError{Text: "Signing failed: " + err.Error(), Cause: err}
}
