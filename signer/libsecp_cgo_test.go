//go:build cgo

package signer

// withLibsecp256k1: go-ethereum's crypto signs with libsecp256k1 (C), an
// implementation of the curve apart from decred's, which ours uses.
const withLibsecp256k1 = true
