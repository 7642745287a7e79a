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
// side by side where they fit, without notes.
func factRows(c *tui.Common, facts []intent.Fact, lw, wd, level int) []ReviewRow {
	var rows []ReviewRow
	for _, f := range facts {
		value := FactValue(c, f)
		if level < 2 {
			rows = append(rows, ReviewRow{Label: f.Label, Value: value, Note: f.Note})
			continue
		}
		beside := layout.InksFor(c).Label.On(f.Label) + " " + value
		// Where the money goes keeps a row of its own, never read as
		// part of another fact.
		alone := f.Mark == intent.Payee || len(rows) > 0 && rows[len(rows)-1].alone
		if n := len(rows) - 1; n >= 0 && !alone && ansi.StringWidth(layout.Field(c, rows[n].Label, lw, rows[n].Value)+"  "+beside) <= wd {
			rows[n].Value += "  " + beside
			continue
		}
		rows = append(rows, ReviewRow{Label: f.Label, Value: value, alone: f.Mark == intent.Payee})
	}
	return rows
}
