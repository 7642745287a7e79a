package kit

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// TestReviewNamesWhere: a review names the environment beside the domain
// it signs (issue 27 item 4): its name and base URL at every level but the
// smallest, and on the embedded sandbox that nothing real moves (on a line
// of its own while notes are shown, then on the environment's row); a
// configured environment is named without it.
func TestReviewNamesWhere(t *testing.T) {
	now := time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)
	common := tui.NewCommon(true, func() time.Time { return now })
	for _, tc := range []struct {
		env      config.Environment
		named    string
		embedded bool
	}{
		{config.SandboxEnvironment("http://127.0.0.1:8700", 327), "Environment      sandbox · http://127.0.0.1:8700", true},
		{config.Environment{Name: "staging", BaseURL: "https://api.staging.example", ChainID: 327, DomainName: signer.DefaultDomainName},
			"Environment      staging · https://api.staging.example", false},
	} {
		app := &App{Deps: Deps{Common: common}, Session: Session{Target: target.Target{Env: tc.env}}}
		v := TypedDataView{Review: intent.Review{Intent: intent.Intent{Domain: tc.env.Domain(), Message: signer.Transfer{}}}, Where: WhereRows(app)}
		for level := range 5 {
			out := ansi.Strip(v.Render(common, 100, level))
			named := strings.Contains(out, tc.named+"\n") || tc.embedded && strings.Contains(out, tc.named+" · nothing real moves\n")
			said := strings.Contains(out, "the embedded test exchange: nothing real moves") ||
				level >= 2 && strings.Contains(out, tc.named+" · nothing real moves\n")
			if named != (level < 4) || said != (tc.embedded && level < 4) {
				t.Errorf("%s at level %d: named %v, embedded said %v:\n%s", tc.env.Name, level, named, said, out)
			}
		}
	}
}

// TestPayeeHasItsOwnRow: where the money goes is never packed beside
// another fact, at any level, however wide the terminal; the facts after
// it still pack where they fit.
func TestPayeeHasItsOwnRow(t *testing.T) {
	common := tui.NewCommon(false, time.Now)
	facts := []intent.Fact{
		{Label: "Route", Value: "USDT → USDT"},
		{Label: "Pays out to", Value: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", Mark: intent.Payee},
		{Label: "You pay", Value: "25 USDT"},
		{Label: "Speed", Value: "fast"},
	}
	for level := range 5 {
		v := TypedDataView{Review: intent.Review{Intent: intent.Intent{Message: signer.Transfer{}}}, Facts: facts}
		out := ansi.Strip(v.Render(common, 200, level))
		var payee string
		for l := range strings.SplitSeq(out, "\n") {
			if strings.Contains(l, "Pays out to") {
				payee = strings.TrimSpace(l)
			}
		}
		if payee != "Pays out to      0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" {
			t.Errorf("level %d: the payee's row is %q:\n%s", level, payee, out)
		}
		if packed := strings.Contains(out, "You pay          25 USDT  Speed fast"); packed != (level >= 2) {
			t.Errorf("level %d: the facts after the payee packed %v:\n%s", level, packed, out)
		}
	}
}

// TestPairsGoBesideWhereTheyFit: from level 4 a paired field goes beside
// its partner only where the line has room; one that does not fit keeps a
// line of its own, and the next that fits still goes beside.
func TestPairsGoBesideWhereTheyFit(t *testing.T) {
	common := tui.NewCommon(false, time.Now)
	const most = ^uint64(0)
	v := TypedDataView{Review: intent.Review{Intent: intent.Intent{Message: signer.Transfer{FromSubAccount: most, ToSubAccount: most, Nonce: 7}}},
		Pairs: map[string][]string{"fromSubAccount": {"toSubAccount", "nonce"}}}
	out := ansi.Strip(v.Render(common, 60, 4))
	for l := range strings.SplitSeq(out, "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("a line of %d cells: %q", ansi.StringWidth(l), l)
		}
	}
	for _, want := range []string{"  fromSubAccount 18446744073709551615  nonce 7\n", "  toSubAccount   18446744073709551615\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
