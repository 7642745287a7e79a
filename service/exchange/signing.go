package exchange

import (
	"errors"

	"github.com/svcwallet/svcwallet/signer"
)

// SignError is a signature not given, worded for the user (SignFailure):
// Head says what happened ("Not signed", "Signing failed", "Refused the
// signature"), Text why and that nothing was sent. A face says Head where
// it would say its own label ("Not withdrawn"), so a cancelled wait never
// reads "Not withdrawn: Not signed: …".
type SignError struct {
	Head, Text string
	Cause      error
}

func (e SignError) Error() string { return e.Head + ": " + e.Text }

func (e SignError) Unwrap() error { return e.Cause }

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
		return SignError{Head: "Not signed", Text: err.Error() + "; nothing was sent", Cause: err}
	case errors.As(err, &se) && se.Refused:
		return SignError{Head: "Not signed", Text: err.Error() + "; nothing was sent", Cause: err}
	case errors.As(err, &se):
		return SignError{Head: "Signing failed", Text: err.Error() + "; nothing was sent", Cause: err}
	case errors.Is(err, signer.ErrWrongSigner):
		return SignError{Head: "Refused the signature", Text: err.Error() + "; nothing was sent", Cause: err}
	}
	return SignError{Head: "Signing failed", Text: err.Error(), Cause: err}
}

// Labelled is what a face says under its label for an outcome (a
// withdrawal "Not withdrawn", an authorization "Not authorized"): err,
// unless it is a SignError or a UserError with a Head, whose Head stands
// for the label.
func Labelled(label string, err error) (string, error) {
	if se, ok := errors.AsType[SignError](err); ok {
		return se.Head, UserError{Text: se.Text, Cause: err}
	}
	if ue, ok := errors.AsType[UserError](err); ok && ue.Head != "" {
		return ue.Head, UserError{Text: ue.Text, Cause: err}
	}
	return label, err
}
