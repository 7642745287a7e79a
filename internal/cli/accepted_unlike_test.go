package cli

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawAcceptanceUnlikeQuote: a 202 naming another fee than the
// quote locked is printed with the quote's fee, in text and in --json,
// beside words saying the answer did not add up and what to do.
func TestWithdrawAcceptanceUnlikeQuote(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		withdrawState(t)
		r := newStatusRig(t)
		r.rewrite.Store(onlyPath(exchange.PathWithdraw, func(b []byte) []byte {
			var m map[string]any
			if json.Unmarshal(b, &m) != nil {
				return b
			}
			m["fee"] = "3"
			out, _ := json.Marshal(m)
			return out
		}))
		args := withdrawArgs(sandbox.DestCompleted, "25", "--yes")
		if asJSON {
			args = append(args, "--json")
		}
		res := r.runWithdraw(withdrawRunOpts{}, args...)
		if !asJSON {
			if !regexp.MustCompile(`\n\s+Fee\s+1\.5 USDT\n`).MatchString(res.stdout) || !strings.Contains(res.stdout, "a fee of 3 USDT, not the 1.5 the quote locked") ||
				!strings.Contains(res.stdout, "tell support") {
				t.Fatalf("text mode said:\n%s", res.stdout)
			}
			continue
		}
		var acc struct {
			Accepted bool     `json:"accepted"`
			Fee      string   `json:"fee"`
			Warnings []string `json:"warnings"`
		}
		line, _, _ := bytes.Cut([]byte(res.stdout[strings.Index(res.stdout, "\n")+1:]), []byte("\n"))
		if err := json.Unmarshal(line, &acc); err != nil || !acc.Accepted || acc.Fee != "1.5" || len(acc.Warnings) != 1 || !strings.Contains(acc.Warnings[0], "does not add up") {
			t.Fatalf("--json acceptance line %s (%v)", line, err)
		}
	}
}
