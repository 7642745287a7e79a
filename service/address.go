package service

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"
)

// maxBase58Len bounds base58 input before decoding (decoding is quadratic);
// Solana addresses have at most 44 characters and Tron ones exactly 34.
const maxBase58Len = 44

// ValidateAddress checks a destination address against a withdrawal route's
// chain type (D12): evm is 0x + 40 hex with a valid EIP-55 checksum when mixed
// case; solana is base58 of 32 bytes; tron is base58check of 25 bytes starting
// with 0x41. The error gives the reason and never repeats the input.
//
// An address that is valid for another chain type is the likely mix-up (an
// EVM address on the Solana route): the error names it and both ways out.
func ValidateAddress(chainType, addr string) error {
	err := validateAddress(chainType, addr)
	if err == nil {
		return nil
	}
	for _, other := range []string{ChainTypeEVM, ChainTypeSolana, ChainTypeTron} {
		if other != chainType && validateAddress(other, addr) == nil {
			return fmt.Errorf("this is %s address: choose %s chain, or enter %s address",
				articled(ChainTypeLabel(other)), articled(ChainTypeLabel(other)), articled(ChainTypeLabel(chainType)))
		}
	}
	return err
}

// articled puts "a" or "an" before a chain type's label: "an EVM", "a Solana".
func articled(label string) string {
	if strings.HasPrefix(label, "E") {
		return "an " + label
	}
	return "a " + label
}

func validateAddress(chainType, addr string) error {
	switch chainType {
	case ChainTypeEVM:
		return validateEVM(addr)
	case ChainTypeSolana:
		return validateSolana(addr)
	case ChainTypeTron:
		return validateTron(addr)
	}
	return fmt.Errorf("unknown chain type %q", chainType)
}

func validateEVM(addr string) error {
	if !strings.HasPrefix(addr, "0x") {
		return errors.New("an EVM address starts with 0x")
	}
	digits := addr[2:]
	if len(digits) != 40 {
		return fmt.Errorf("an EVM address has 40 hex digits after 0x, not %d", len(digits))
	}
	var lower, upper bool
	for _, r := range digits {
		switch {
		case r >= '0' && r <= '9':
		case r >= 'a' && r <= 'f':
			lower = true
		case r >= 'A' && r <= 'F':
			upper = true
		default:
			return errors.New("an EVM address may hold only hex digits after 0x")
		}
	}
	// Mixed case carries an EIP-55 checksum, which must hold; one case carries none.
	if lower && upper && common.HexToAddress(addr).Hex() != addr {
		return errors.New("EVM address has a wrong EIP-55 checksum (check for a typo)")
	}
	return nil
}

func decodeBase58(addr, chain string) ([]byte, error) {
	if addr == "" {
		return nil, fmt.Errorf("a %s address is empty", chain)
	}
	if len(addr) > maxBase58Len {
		return nil, fmt.Errorf("a %s address is too long", chain)
	}
	b, err := base58.Decode(addr)
	if err != nil {
		return nil, fmt.Errorf("a %s address must be base58 (no 0, O, I or l)", chain)
	}
	return b, nil
}

func validateSolana(addr string) error {
	b, err := decodeBase58(addr, "Solana")
	if err != nil {
		return err
	}
	if len(b) != 32 {
		return fmt.Errorf("a Solana address decodes to 32 bytes, not %d", len(b))
	}
	return nil
}

func validateTron(addr string) error {
	b, err := decodeBase58(addr, "Tron")
	if err != nil {
		return err
	}
	if len(b) != 25 {
		return fmt.Errorf("a Tron address decodes to 25 bytes, not %d", len(b))
	}
	if b[0] != 0x41 {
		return errors.New("a Tron address starts with T (version byte 0x41)")
	}
	first := sha256.Sum256(b[:21])
	second := sha256.Sum256(first[:])
	if string(second[:4]) != string(b[21:]) {
		return errors.New("the Tron address has a wrong checksum (check for a typo)")
	}
	return nil
}
