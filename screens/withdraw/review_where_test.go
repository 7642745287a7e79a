package withdraw

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/signer"
)

// TestReviewAlwaysNamesTheEnvironment (issue 35 item 12): at every size
// the review can be drawn (80 and 120 columns, every height it fits), the
// quote live or expired, it names the environment it signs in, and the
// chain id in its domain: the top bar may drop the chain at 80 columns,
// and the smallest rendering used to drop the environment's line.
func TestReviewAlwaysNamesTheEnvironment(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	app.Target.Env.Name = "local" // a configured environment, not the embedded sandbox
	for _, w := range []int{80, 120} {
		q := fixedQuote(*now, "1.5")
		r := reviewFor(t, app, now, q, 0, w, 40, signer.Found{Place: signer.KeyDemo})
		for _, expired := range []bool{false, true} {
			drawn := 0
			for h := 8; h <= 40; h++ {
				r.SetSize(w, h)
				if r.expired() != expired {
					continue
				}
				out, ok := r.fitted()
				if !ok {
					continue
				}
				drawn++
				line, domain := "", ""
				for _, l := range strings.Split(ansi.Strip(out), "\n") {
					switch {
					case strings.HasPrefix(l, "Environment"):
						line = l
					case strings.HasPrefix(l, "Domain"):
						domain = l
					}
				}
				if !strings.Contains(line, "local · ") || !strings.Contains(line+domain, "chainId 327") {
					t.Errorf("%dx%d, expired %v: the environment's line is %q:\n%s", w, h, expired, line, ansi.Strip(out))
				}
			}
			if drawn == 0 && !expired {
				t.Errorf("%d columns: the review is drawn at no height up to 40", w)
			}
			*now = now.Add(q.ExpiresAt.Sub(*now) + 1) // the quote expires
		}
	}
}

// TestReviewDrawsTheServiceFacts: the review draws every fact the service
// says of a withdrawal (withdrawal.Order.Facts, which the command line and
// plain mode list), in its order, each on the line of its label.
func TestReviewDrawsTheServiceFacts(t *testing.T) {
	app, now := screentest.LoggedInApp(t)
	r := reviewFor(t, app, now, fixedQuote(*now, "1.5"), 0, 120, 40, signer.Found{Place: signer.KeyDemo})
	lines := strings.Split(ansi.Strip(r.View()), "\n")
	at := 0
	for _, f := range r.order.Facts() {
		for at < len(lines) && !strings.HasPrefix(lines[at], f.Label+" ") {
			at++
		}
		if at == len(lines) || !strings.Contains(squash(lines[at]), squash(f.Value)) {
			t.Fatalf("no %q line with %q, in the service's order:\n%s", f.Label, f.Value, strings.Join(lines, "\n"))
		}
	}
}
