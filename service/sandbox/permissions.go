package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// The sandbox's own reading of permissions (SPEC.md §2.4, D5), not the
// client's: the canonical string is what the builder's key signs, so a
// client that orders or spells it wrong must be refused here.

// perm is a permission's bit position.
type perm uint8

const (
	permAdmin perm = 1 + iota
	permInternalTransfer
	permExternalTransfer
	permWithdraw
	permVaultInvestor
	permTrade
)

// permNames in bit order: permNames[p-1] names p.
var permNames = [...]string{"Admin", "InternalTransfer", "ExternalTransfer", "Withdraw", "VaultInvestor", "Trade"}

func (p perm) String() string { return permNames[p-1] }

// perms is a set of permissions: bit p set for permission p.
type perms uint8

func (ps perms) has(p perm) bool { return ps&(1<<p) != 0 }

func (ps perms) with(p perm) perms { return ps | 1<<p }

// canonical is the set as SPEC.md §2.4 writes it: sorted by bit, joined by "&".
func (ps perms) canonical() string {
	var names []string
	for p := permAdmin; p <= permTrade; p++ {
		if ps.has(p) {
			names = append(names, p.String())
		}
	}
	return strings.Join(names, "&")
}

// parseCanonicalPerms accepts builder_api_key_permissions only in the exact
// canonical form. The names are first read as people write them (any case
// and order, "&", "," or spaces between) so a refusal can say what to send;
// errors quote a bounded prefix of the request's text.
func parseCanonicalPerms(s string) (perms, error) {
	choices := strings.Join(permNames[:], ", ")
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '&' || r == ',' || r == ' ' })
	if len(parts) == 0 {
		return 0, errors.New("no permission given; choose from " + choices)
	}
	var ps perms
	for _, part := range parts {
		p, ok := permNamed(part)
		switch {
		case !ok:
			return 0, fmt.Errorf("unknown permission %.32q; choose from %s", part, choices)
		case ps.has(p):
			return 0, fmt.Errorf("permission %s is given twice", p)
		}
		ps = ps.with(p)
	}
	if ps.canonical() != s {
		return 0, fmt.Errorf("permissions %.80q are not in canonical form; send %q", s, ps.canonical())
	}
	return ps, nil
}

// permNamed finds a permission by name, ignoring ASCII case only: Unicode
// folding would take look-alikes such as "K" (Kelvin) for "k".
func permNamed(name string) (perm, bool) {
	for p := permAdmin; p <= permTrade; p++ {
		if asciiLower(p.String()) == asciiLower(name) {
			return p, true
		}
	}
	return 0, false
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
