package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWithdrawResumeJSONNamesNoFeeNotGiven: withdraw resume --json of a 202
// that left the fee out writes no fee (withdrawal.Order.Figures, the rule
// its words follow): it wrote "fee":"0" and "fee_usd":"0", a bridge that
// took nothing. The amount the journal locked is written.
func TestWithdrawResumeJSONNamesNoFeeNotGiven(t *testing.T) {
	out := resumeWith202(t, func(v map[string]any) {
		delete(v, "fee")
		delete(v, "fee_usd")
	}, "--json")
	for line := range strings.Lines(out.stdout) {
		var acc map[string]any
		if json.Unmarshal([]byte(line), &acc) != nil || acc["kind"] != "accepted" {
			continue
		}
		_, fee := acc["fee"]
		_, feeUSD := acc["fee_usd"]
		if fee || feeUSD || acc["receive_amount"] == nil || acc["receive_amount"] == "0" || acc["chain"] == "" {
			t.Fatalf("the accepted line of a 202 without a fee: %s", line)
		}
		return
	}
	t.Fatalf("no accepted line:\nstdout:\n%s\nstderr:\n%s", out.stdout, out.stderr)
}
