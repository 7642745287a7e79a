package exchange

import (
	"bytes"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/mr-tron/base58"
)

// evmBurnAddresses are well-known EVM addresses no one holds the key of,
// beyond those Keyless tells by their shape.
var evmBurnAddresses = []common.Address{
	common.HexToAddress("0xdEAD000000000000000042069420694206942069"),
	common.HexToAddress("0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF"),
}

// solanaKeyless are Solana addresses no one holds the key of: the
// incinerator, the token programs a deposit's tokens would be sent to, the
// native programs and sysvars (named, not zero enough for the burn rule)
// and wrapped SOL's mint.
var solanaKeyless = []string{
	"1nc1nerator11111111111111111111111111111111",
	"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
	"TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
	"ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
	"Vote111111111111111111111111111111111111111",
	"Stake11111111111111111111111111111111111111",
	"Config1111111111111111111111111111111111111",
	"ComputeBudget111111111111111111111111111111",
	"AddressLookupTab1e1111111111111111111111111",
	"BPFLoader1111111111111111111111111111111111",
	"BPFLoader2111111111111111111111111111111111",
	"BPFLoaderUpgradeab1e11111111111111111111111",
	"Ed25519SigVerify111111111111111111111111111",
	"KeccakSecp256k11111111111111111111111111111",
	"SysvarC1ock11111111111111111111111111111111",
	"SysvarRent111111111111111111111111111111111",
	"SysvarRecentB1ockHashes11111111111111111111",
	"SysvarEpochSchedu1e111111111111111111111111",
	"SysvarFees111111111111111111111111111111111",
	"SysvarRewards111111111111111111111111111111",
	"SysvarS1otHashes111111111111111111111111111",
	"SysvarS1otHistory11111111111111111111111111",
	"SysvarStakeHistory1111111111111111111111111",
	"Sysvar1nstructions1111111111111111111111111",
	"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
	"Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
	"So11111111111111111111111111111111111111112",
}

// Keyless says why addr, valid for chainType, is one no one holds the key
// of, or "": the zero address (Tron's T9yD14…, Solana's 111…1 too), a burn
// address (at most two bytes that are not zero, as 0x…dEaD and the EVM
// precompiles, or a well-known one), or a Solana program's. Funds sent
// there are lost, so neither a deposit nor a bridge may be one.
func Keyless(chainType, addr string) string {
	if chainType != ChainTypeEVM && len(addr) > maxBase58Len {
		return "" // decoding is quadratic, and no such address is this long
	}
	var b []byte
	switch chainType {
	case ChainTypeEVM:
		a := common.HexToAddress(addr)
		if slices.Contains(evmBurnAddresses, a) {
			return burnWords
		}
		b = a.Bytes()
	case ChainTypeTron:
		if d, err := base58.Decode(addr); err == nil && len(d) == 25 {
			b = d[1:21] // past the version byte, before the checksum
		}
	case ChainTypeSolana:
		if slices.Contains(solanaKeyless, addr) {
			return "is a program's, a sysvar's, a mint's or the incinerator's address, whose key no one holds: funds sent there are lost"
		}
		if d, err := base58.Decode(addr); err == nil {
			b = d
		}
	}
	if len(b) == 0 {
		return ""
	}
	switch nonZero := len(b) - bytes.Count(b, []byte{0}); {
	case nonZero == 0:
		return "is the zero address: funds sent there are lost"
	case nonZero <= 2:
		return burnWords
	}
	return ""
}

const burnWords = "is a burn address, whose key no one holds: funds sent there are lost"
