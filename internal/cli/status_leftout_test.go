package cli

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusSaysNoAmountItWasNotGiven: a status record without a receive
// amount or a chain (SPEC.md §2.10 names both; a missing amount reads as
// zero) is printed without them: the table said "0 USDT" would be received
// and left the CHAIN column blank, so a line split on spaces lost a
// column; one id's print said "Receive 0 USDT"; --json said "0".
func TestStatusSaysNoAmountItWasNotGiven(t *testing.T) {
	r := newStatusRig(t)
	ids := r.seed(sandbox.DestFailed, 2)
	r.clock.Advance(sandbox.DefaultSettle)
	leftOut := regexp.MustCompile(`"(receive_amount|chain)":"[^"]*",?`)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, func(b []byte) []byte { return leftOut.ReplaceAll(b, nil) }))

	table := r.run(nil, ids...)
	lines := strings.Split(strings.TrimSpace(table.stdout), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and two rows:\n%s", table.stdout)
	}
	for _, line := range lines[1:] {
		if f := strings.Fields(line); len(f) != 6 || f[2] != "-" || f[4] != "-" {
			t.Errorf("want the id, the state, '-' for the amount, the token, '-' for the chain and the hash: %q", line)
		}
	}

	one := r.run(nil, ids[0])
	if strings.Contains(one.stdout, "Receive") || strings.Contains(one.stdout, " 0 ") {
		t.Errorf("one id's print says an amount the record does not give:\n%s", one.stdout)
	}

	var rec map[string]any
	if err := json.Unmarshal([]byte(r.run(nil, "--json", ids[0]).stdout), &rec); err != nil {
		t.Fatal(err)
	}
	if v, ok := rec["receive_amount"]; ok {
		t.Errorf("--json says receive_amount %v; want it left out, as the record left it", v)
	}
}
