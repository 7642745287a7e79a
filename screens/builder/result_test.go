package builder

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

func height(v string) int { return strings.Count(v, "\n") + 1 }

// TestBuilderResultGivesUpOnlyTheBlankLinesItMust: a result one row too
// tall for its screen gives up one blank line, not all three, and so at
// each height down to none: no row is left empty at the bottom while a
// blank line was dropped for it.
func TestBuilderResultGivesUpOnlyTheBlankLinesItMust(t *testing.T) {
	r := newBldRig(t, 60, 20)
	auth := builder.Auth{Main: common.HexToAddress(sandbox.NoChainAddress), Builder: common.HexToAddress(sandbox.BuilderAddress),
		WithKey: true, Label: "market maker bot for the overnight futures book", KeySigner: common.HexToAddress(sandbox.NoChainAddress)}
	res := newBuilderResult(r.App, auth, 0, "sbx-0123456789abcdef")
	res.SetSize(60, 0)
	full := height(res.View())
	for h := full; h >= full-resultBlanks; h-- {
		res.SetSize(60, h)
		if got := height(res.View()); got != h {
			t.Errorf("at 60x%d the result takes %d rows:\n%s", h, got, ansi.Strip(res.View()))
		}
	}
}
