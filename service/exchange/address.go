package exchange

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/internal/safetext"
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
				Articled(ChainTypeLabel(other)), Articled(ChainTypeLabel(other)), Articled(ChainTypeLabel(chainType)))
		}
	}
	return err
}

// AddressShape says in a few words what an address of a chain type looks
// like, for a field that asks one (its placeholder already names the type).
func AddressShape(chainType string) string {
	switch chainType {
	case ChainTypeEVM:
		return "0x and 40 hex digits"
	case ChainTypeSolana:
		return "base58, 32 to 44 characters"
	case ChainTypeTron:
		return fmt.Sprintf("T and %d more base58 characters", tronAddressLen-1)
	}
	return Articled(ChainTypeLabel(chainType)) + " address"
}

// Articled puts "a" or "an" before a chain type's label or a field's name,
// by whether it starts with a vowel: "an EVM", "a Solana", "an account id".
// No label nor field starts with a vowel said otherwise ("a user").
func Articled(label string) string {
	if label != "" && strings.ContainsRune("aeiouAEIOU", rune(label[0])) {
		return "an " + label
	}
	return "a " + label
}

func validateAddress(chainType, addr string) error {
	if err := strayCharacter(addr); err != nil {
		return err
	}
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

// strayCharacter names the first character no address of any chain holds,
// with its position in characters (not bytes), so the cause reads at once:
// a zero-width space pasted along, a Cyrillic letter that looks Latin.
func strayCharacter(addr string) error {
	pos := 0
	for _, r := range addr {
		pos++
		switch {
		case r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			continue
		case r == ' ':
			return fmt.Errorf("a space at position %d: addresses have none", pos)
		case unicode.IsLetter(r):
			return fmt.Errorf("non-Latin look-alike '%c' (U+%04X) at position %d: retype that letter", r, r, pos)
		case unicode.Is(unicode.Cf, r) || unicode.IsControl(r) || unicode.IsSpace(r) || !unicode.IsPrint(r):
			return fmt.Errorf("invisible character U+%04X at position %d: delete it (it came with the paste)", r, pos)
		case r >= utf8.RuneSelf:
			return fmt.Errorf("character '%c' (U+%04X) at position %d: addresses hold only Latin letters and digits", r, r, pos)
		}
		return fmt.Errorf("character '%c' at position %d: addresses hold only Latin letters and digits", r, pos)
	}
	return nil
}

func validateEVM(addr string) error {
	if !strings.HasPrefix(addr, "0x") {
		return errors.New("an EVM address starts with 0x")
	}
	digits := addr[2:]
	if len(digits) != 40 {
		return fmt.Errorf("an EVM address has 40 hex digits after 0x, not %d", len(digits))
	}
	if !safetext.HexDigits(digits, 40) {
		return errors.New("an EVM address may hold only hex digits after 0x")
	}
	// Mixed case carries an EIP-55 checksum, which must hold; one case carries none.
	mixed := digits != strings.ToLower(digits) && digits != strings.ToUpper(digits)
	if mixed && common.HexToAddress(addr).Hex() != addr {
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

// tronAddressLen is the length of every Tron address: base58 of 25 bytes
// starting with 0x41 always takes 34 characters.
const tronAddressLen = 34

func validateTron(addr string) error {
	if addr != "" && !strings.HasPrefix(addr, "T") {
		return errors.New("a Tron address starts with T")
	}
	if addr != "" && len(addr) != tronAddressLen {
		return fmt.Errorf("a Tron address has %d characters, not %d", tronAddressLen, len(addr))
	}
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
