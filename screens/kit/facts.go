package kit

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/tui"
)

// FactValue is a journey's fact's value as every screen draws it: where
// the money goes in the danger colour, what to weigh in the warning colour.
func FactValue(c *tui.Common, f intent.Fact) string {
	switch f.Mark {
	case intent.Payee:
		return c.Styles.Danger.Render(f.Value)
	case intent.Heed:
		return c.Styles.Warning.Render(f.Value)
	}
	return c.Styles.Value.Render(f.Value)
}

// factRows are a review's facts, in the journey's order, as rows: one a
// row with its note up to level 1; from level 2, for small terminals,
// side by side where they fit, without notes but their kept words
// (intent.Fact.Kept), which end a row of their own, and their values in
// their fewest words (intent.Fact.Short). Each fact goes beside the
// one before it; where a fact may go in any earlier row with room saves a
// row (a USDC payout's longer receive amount at 60x20), it does.
func factRows(c *tui.Common, facts []intent.Fact, lw, wd, level int) []ReviewRow {
	rows := packFacts(c, facts, lw, wd, level, false)
	if level >= 2 {
		if fewer := packFacts(c, facts, lw, wd, level, true); len(fewer) < len(rows) {
			return fewer
		}
	}
	return rows
}

// packFacts lays facts out as factRows says; anyRow lets a fact go in the
// first row with room after where the money goes, not only the last.
func packFacts(c *tui.Common, facts []intent.Fact, lw, wd, level int, anyRow bool) []ReviewRow {
	var rows []ReviewRow
	from := 0 // no fact goes in a row up to where the money goes
	for _, f := range facts {
		if level < 2 {
			rows = append(rows, ReviewRow{Label: f.Label, Value: FactValue(c, f), Note: f.Note})
			continue
		}
		if f.Short != "" {
			f.Value = f.Short
		}
		value := FactValue(c, f)
		beside := layout.InksFor(c).Label.On(f.Label) + " " + value
		// Where the money goes keeps a row of its own, never read as
		// part of another fact.
		at, first := -1, len(rows)-1
		if anyRow {
			first = from
		}
		for n := max(first, from); n < len(rows) && f.Mark != intent.Payee && f.Kept == ""; n++ {
			if rows[n].Note == "" && ansi.StringWidth(layout.Field(c, rows[n].Label, lw, rows[n].Value)+"  "+beside) <= wd {
				at = n
				break
			}
		}
		if at >= 0 {
			rows[at].Value += "  " + beside
			continue
		}
		rows = append(rows, ReviewRow{Label: f.Label, Value: value, Note: f.Kept, Keep: f.Kept != ""})
		if f.Mark == intent.Payee {
			from = len(rows)
		}
	}
	return rows
}
