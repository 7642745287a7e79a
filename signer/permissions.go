package signer

import (
	"errors"
	"fmt"
	"strings"
)

// Permission is one bit of an API key's permissions (SPEC.md §2.4, D5).
type Permission uint8

const (
	PermAdmin            Permission = 1
	PermInternalTransfer Permission = 2
	PermExternalTransfer Permission = 3
	PermWithdraw         Permission = 4
	PermVaultInvestor    Permission = 5
	PermTrade            Permission = 6
)

// AllPermissions in bit order.
var AllPermissions = []Permission{PermAdmin, PermInternalTransfer, PermExternalTransfer, PermWithdraw, PermVaultInvestor, PermTrade}

var permissionNames = map[Permission]string{
	PermAdmin: "Admin", PermInternalTransfer: "InternalTransfer", PermExternalTransfer: "ExternalTransfer",
	PermWithdraw: "Withdraw", PermVaultInvestor: "VaultInvestor", PermTrade: "Trade",
}

func (p Permission) String() string { return permissionNames[p] }

// Permissions is a set of permissions as a bitmask (bit n set for permission n).
type Permissions uint8

// everyPermission names all six, for error messages that list the choices.
const everyPermission Permissions = 0b1111110

// Has reports whether p is in the set.
func (ps Permissions) Has(p Permission) bool { return ps&(1<<p) != 0 }

// With returns the set with p added.
func (ps Permissions) With(p Permission) Permissions { return ps | 1<<p }

// String is the canonical form: names sorted by bit, joined by "&" ("Admin&Trade").
func (ps Permissions) String() string {
	var names []string
	for _, p := range AllPermissions {
		if ps.Has(p) {
			names = append(names, p.String())
		}
	}
	return strings.Join(names, "&")
}

// ParsePermissions reads permission names in any case and order, separated by
// "&" (commas and spaces are accepted from people). Unknown or repeated names
// and an empty list are refused with the reason; errors quote a bounded
// prefix of the input, which may come from a request body.
func ParsePermissions(s string) (Permissions, error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '&' || r == ',' || r == ' ' })
	if len(parts) == 0 {
		return 0, errors.New("no permission given; choose from " + permissionChoices())
	}
	var ps Permissions
	for _, part := range parts {
		p, ok := lookupPermission(part)
		if !ok {
			return 0, fmt.Errorf("unknown permission %.32q; choose from %s", part, permissionChoices())
		}
		if ps.Has(p) {
			return 0, fmt.Errorf("permission %s is given twice", p)
		}
		ps = ps.With(p)
	}
	return ps, nil
}

// permissionChoices lists every permission for people: "Admin, InternalTransfer, …".
func permissionChoices() string { return strings.ReplaceAll(everyPermission.String(), "&", ", ") }

func lookupPermission(name string) (Permission, bool) {
	for _, p := range AllPermissions {
		if asciiEqualFold(p.String(), name) {
			return p, true
		}
	}
	return 0, false
}

// asciiEqualFold ignores ASCII case only: strings.EqualFold would also take
// Unicode look-alikes such as "ſ" (long s) for "s" or "K" (Kelvin) for "k".
// name is ASCII letters, so |0x20 matches exactly the two cases of each.
func asciiEqualFold(name, s string) bool {
	if len(name) != len(s) {
		return false
	}
	for i := range len(name) {
		if name[i]|0x20 != s[i]|0x20 {
			return false
		}
	}
	return true
}
