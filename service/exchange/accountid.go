package exchange

import (
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// An account id (X-Service-Account-Id, D6) is the service's token, which
// SPEC.md §5 does not define further; its account is identified by an
// EVM address (§1). An id of an address's shape (0x and 40 hex digits) is
// that address, which letter case does not change (EIP-55 only checksums
// it): a service answering it in another case is the same account, whose
// journal records, kept board rows and renewed session must not read as
// another's. Any other id is opaque and compared exactly: folding it could
// make two accounts one, and a pinned call go as the wrong one.

// AccountKey is id as compared: an address's shape in lower case, any
// other id as it is.
func AccountKey(id string) string {
	if len(id) == 42 && (id[:2] == "0x" || id[:2] == "0X") && safetext.HexDigits(id[2:], 40) {
		return "0x" + strings.ToLower(id[2:])
	}
	return id
}

// SameAccountID reports whether account ids a and b name one account: the
// one comparison of account ids (AccountKey).
func SameAccountID(a, b string) bool { return AccountKey(a) == AccountKey(b) }
