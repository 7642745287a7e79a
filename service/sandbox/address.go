package sandbox

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// The sandbox reads addresses with its own code, written from D12, not the
// client's: a client check that lets a bad address through must meet a
// refusal here for an end-to-end test to see it.

// base58Limit bounds base58 text before decoding, which is quadratic: a
// 32-byte Solana key is at most 44 characters, a Tron address 34.
const base58Limit = 44

// addressKind is a chain type of D12: how a reason names it, and its check.
type addressKind struct {
	chainType, named string
	problem          func(string) error
}

var addressKinds = []addressKind{
	{exchange.ChainTypeEVM, "an EVM", evmProblem},
	{exchange.ChainTypeSolana, "a Solana", solanaProblem},
	{exchange.ChainTypeTron, "a Tron", tronProblem},
}

// checkAddress refuses addr unless it is an address of chainType. When it
// is one of another chain type, the reason says so: that is the likely
// mix-up. The reason never repeats the input.
func checkAddress(chainType, addr string) error {
	i := slices.IndexFunc(addressKinds, func(k addressKind) bool { return k.chainType == chainType })
	if i < 0 {
		return fmt.Errorf("unknown chain type %q", chainType)
	}
	want := addressKinds[i]
	err := want.problem(addr)
	if err == nil {
		return nil
	}
	for j, k := range addressKinds {
		if j != i && k.problem(addr) == nil {
			return fmt.Errorf("this is %s address: choose %s chain, or enter %s address", k.named, k.named, want.named)
		}
	}
	return err
}

// evmProblem: 0x, 40 hex digits, and when both cases appear they are the
// EIP-55 checksum, which must match.
func evmProblem(addr string) error {
	hexPart, ok := strings.CutPrefix(addr, "0x")
	if !ok {
		return errors.New("an EVM address starts with 0x")
	}
	if len(hexPart) != 40 {
		return fmt.Errorf("an EVM address has 40 hex digits after 0x, not %d", len(hexPart))
	}
	if strings.Trim(hexPart, "0123456789abcdefABCDEF") != "" {
		return errors.New("an EVM address may hold only hex digits after 0x")
	}
	lower, upper := strings.ToLower(hexPart), strings.ToUpper(hexPart)
	if hexPart != lower && hexPart != upper && common.HexToAddress(addr).Hex() != addr {
		return errors.New("EVM address has a wrong EIP-55 checksum (check for a typo)")
	}
	return nil
}

// base58Bytes decodes a Solana or Tron address, bounded first.
func base58Bytes(addr, label string) ([]byte, error) {
	switch {
	case addr == "":
		return nil, fmt.Errorf("a %s address is empty", label)
	case len(addr) > base58Limit:
		return nil, fmt.Errorf("a %s address is too long", label)
	}
	b, err := base58.Decode(addr)
	if err != nil {
		return nil, fmt.Errorf("a %s address must be base58 (no 0, O, I or l)", label)
	}
	return b, nil
}

// solanaProblem: a Solana address is an ed25519 public key, 32 bytes.
func solanaProblem(addr string) error {
	b, err := base58Bytes(addr, "Solana")
	if err != nil {
		return err
	}
	if len(b) != 32 {
		return fmt.Errorf("a Solana address decodes to 32 bytes, not %d", len(b))
	}
	return nil
}

// tronProblem: base58check of version byte 0x41, a 20-byte account and the
// first 4 bytes of sha256(sha256(the 21 before)).
func tronProblem(addr string) error {
	b, err := base58Bytes(addr, "Tron")
	if err != nil {
		return err
	}
	if len(b) != 25 {
		return fmt.Errorf("a Tron address decodes to 25 bytes, not %d", len(b))
	}
	if b[0] != 0x41 {
		return errors.New("a Tron address starts with T (version byte 0x41)")
	}
	once := sha256.Sum256(b[:21])
	twice := sha256.Sum256(once[:])
	if !bytes.Equal(twice[:4], b[21:]) {
		return errors.New("the Tron address has a wrong checksum (check for a typo)")
	}
	return nil
}

// parseAddress reads an EVM address field strictly (D12); a bad one is
// malformed (1003).
func parseAddress(s, field string) (common.Address, *apiError) {
	if err := checkAddress(exchange.ChainTypeEVM, s); err != nil {
		return common.Address{}, malformed("field %s: %s", field, err)
	}
	return common.HexToAddress(s), nil
}
