//go:build !cgo

package signer

// withLibsecp256k1: without cgo go-ethereum's crypto is decred's curve,
// the one ours uses, so a cross-check of the curve would check nothing.
const withLibsecp256k1 = false
