package signer

import (
	"context"
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// ParseSignature reads a signature made elsewhere (a wallet, cast, clef):
// 0x and 130 hex digits, r ‖ s ‖ v, around spaces and a newline. The error
// repeats nothing of the input.
func ParseSignature(s string) ([65]byte, error) {
	sig, ok := parseSignatureHex(strings.TrimSpace(s))
	if !ok {
		return sig, errors.New("a signature is 0x and 130 hex digits (r, s and v)")
	}
	return sig, nil
}

// Presigned is a Key that gives back a signature already made, for the
// address that is expected to have made it: Sign then checks it as it
// checks every other, so a signature by another key, or over other typed
// data, is refused (ErrWrongSigner).
func Presigned(addr common.Address, sig [65]byte) Key { return presigned{addr, sig} }

type presigned struct {
	addr common.Address
	sig  [65]byte
}

func (p presigned) Address() common.Address { return p.addr }

func (p presigned) SignTypedData(context.Context, Domain, Message) ([65]byte, error) {
	return p.sig, nil
}
