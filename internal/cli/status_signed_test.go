package cli

import (
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/journal"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusFillsFromWhatWasSigned: an own withdrawal whose status record
// leaves out its receive amount and chain is said with the journal's, marked
// as from what was signed (follow.Follow.Filled), by the table and one id's
// print alike, as the console's status screen and board say it; another's
// is said without them. They said "-" where the status screen filled them.
func TestStatusFillsFromWhatWasSigned(t *testing.T) {
	r := newJournalingRig(t)
	ids := r.seed(sandbox.DestFailed, 2)
	own := ids[0]
	r.journaledIntent(sandbox.DemoAccountID, own, journal.Intent{Chain: "BASE", ToAddress: sandbox.DestFailed, TokenIn: "USDT", TokenOut: "USDT",
		PayAmount: decimal.RequireFromString("10"), ReceiveAmount: decimal.RequireFromString("8.5")})
	r.clock.Advance(sandbox.DefaultSettle)
	leftOut := regexp.MustCompile(`"(receive_amount|chain)":"[^"]*",?`)
	r.rewrite.Store(onlyPath(exchange.PathWithdrawalStatus, func(b []byte) []byte { return leftOut.ReplaceAll(b, nil) }))

	table := r.run(nil, ids...)
	rows := map[string][]string{}
	for line := range strings.Lines(table.stdout) {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]] = f
		}
	}
	if f := rows[own]; len(f) != 6 || f[2] != "8.5*" || f[3] != "USDT" || f[4] != "BASE*" {
		t.Errorf("the own row: %q, want the journal's amount and chain starred\n%s", f, table.stdout)
	}
	if f := rows[ids[1]]; len(f) != 6 || f[2] != "-" || f[4] != "-" {
		t.Errorf("another's row: %q, want '-' for what its record leaves out\n%s", f, table.stdout)
	}
	if !strings.Contains(table.stderr, "* from what was signed") {
		t.Errorf("the table's stderr does not say what * is:\n%s", table.stderr)
	}
	// stdout is the table's rows alone: a script splitting them on spaces
	// never reads the legend as a row (docs/scripting.md).
	for line := range strings.Lines(table.stdout) {
		if f := strings.Fields(line); len(f) > 0 && f[0] != "QUOTE" && f[0] != own && f[0] != ids[1] {
			t.Errorf("stdout holds a line that is no row: %q", line)
		}
	}

	one := r.run(nil, own).stdout
	for _, want := range []string{"Chain        BASE  (from what was signed)", "Receive      8.5 USDT  (from what was signed)"} {
		if !strings.Contains(one, want) {
			t.Errorf("one id's print lacks %q:\n%s", want, one)
		}
	}
	// --json writes the service's record as it is: a script never takes
	// the journal's amount for one the service said.
	if js := r.run(nil, "--json", own).stdout; !strings.Contains(js, `"quote_id":"`+own+`"`) || strings.Contains(js, `"receive_amount"`) || strings.Contains(js, `"chain":"BASE"`) {
		t.Errorf("--json of the own id filled what the record leaves out:\n%s", js)
	}
	// A chain left out is said (follow.NoChain); an amount left out is not.
	if other := r.run(nil, ids[1]).stdout; strings.Contains(other, "Receive") || !strings.Contains(other, "Chain        "+follow.NoChain+"\n") {
		t.Errorf("another's print names a receive amount its record leaves out, or not that it gives no chain:\n%s", other)
	}
}
