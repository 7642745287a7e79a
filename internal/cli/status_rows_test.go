package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestStatusReadsARowsID: status - takes a spreadsheet's rows (a header,
// then a date, a name, the quote id and an amount a row, tab- or
// comma-separated) as their quote ids, and an id ending a sentence as it
// is without the '.', from stdin and as an argument; it refused every such
// row, and asked the id with the '.'. A row of two different ids, hex ids
// one a line that are a key's shape together, and a key after an id's
// line are each refused naming only their own lines, never repeated.
func TestStatusReadsARowsID(t *testing.T) {
	r := newStatusRig(t)
	ids := r.seed(sandbox.DestCompleted, 2)
	r.clock.Advance(sandbox.DefaultSettle)
	r.takeAsks()
	rows := "date,customer,quote id,amount\n2026-11-30, ACME, " + ids[0] + ", 25 USDT\n2026-11-30\tBeta Ltd\t" + ids[1] + "\t18.50\n"
	r.runStdin(rows, "-").want(t, exitCompleted, []string{ids[0], ids[1]}, nil)
	r.runStdin("Here it is: "+ids[0]+".\n", "-").want(t, exitCompleted, []string{ids[0]}, nil)
	r.run(nil, ids[1]+".").want(t, exitCompleted, []string{ids[1]}, nil)
	if n := len(r.takeAsks()); n != 4 {
		t.Errorf("%d status requests, want one an id a run", n)
	}
	r.runStdin(ids[0]+"\n2026-11-30, "+ids[0]+", "+ids[1]+", 25\n", "-").want(t, exitUsage, nil,
		[]string{"standard input line 2 holds 2 different ids, in columns 2 and 3", "not guessed"})
	hex := strings.Repeat("a1", 16) + "\n" + strings.Repeat("b2", 16) + "\n"
	if res := r.runStdin(ids[0]+"\n"+hex, "-"); res.code != exitUsage || !strings.Contains(res.stderr, "standard input lines 2–3 hold 2 ids of 32 hex digits each, or a private key") ||
		strings.Contains(res.stderr, "a1a1") || strings.Contains(res.stderr, "b2b2") {
		t.Errorf("hex ids that are a key's shape together: exit %d\n%s", res.code, res.stderr)
	}
	key := strings.TrimPrefix(sandbox.DemoPrivateKey, "0x")
	if res := r.runStdin(ids[0][:len(ids[0])-1]+"f\n"+key+"\n", "-"); res.code != exitUsage || !strings.Contains(res.stderr, "standard input line 2 is not a quote id") ||
		strings.Contains(res.stderr, key[:8]) {
		t.Errorf("a key after an id ending in f: exit %d\n%s", res.code, res.stderr)
	}
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests for refused input", n)
	}
}

// TestStatusReadsItsOwnCSV: what `status --csv` prints, piped back into
// `status -`, is read as its quote ids, its header naming their column:
// each row, a transfer id and a payout hash beside the quote id, was
// refused as holding three different ids.
func TestStatusReadsItsOwnCSV(t *testing.T) {
	r := newStatusRig(t)
	ids := r.seed(sandbox.DestCompleted, 2)
	r.clock.Advance(sandbox.DefaultSettle)
	out := r.run(nil, append([]string{"--csv"}, ids...)...)
	out.want(t, exitCompleted, []string{"quote_id,tx_id,", "tx-", "0x"}, nil)
	r.takeAsks()
	again := r.runStdin(out.stdout, "--csv", "-")
	again.want(t, exitCompleted, nil, nil)
	// Its rows, a quote id first in each (last_checked is the run's own).
	if lines := strings.Split(strings.TrimSpace(again.stdout), "\n"); len(lines) != 3 || !strings.HasPrefix(lines[1], ids[0]+",") || !strings.HasPrefix(lines[2], ids[1]+",") {
		t.Errorf("status --csv read back printed\n%s\nwant the rows of %q", again.stdout, ids)
	}
	if asked := r.takeAsks(); len(asked) != 2 {
		t.Errorf("%d status requests, want one a quote id", len(asked))
	}
}
