package kit

import (
	"strings"

	"github.com/svcwallet/svcwallet/screens/kit/layout"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/signer"
	"github.com/svcwallet/svcwallet/tui"
)

// ReviewRow is a line of a review: a fact, the environment, a field of
// the typed data, its value styled.
type ReviewRow struct {
	Label, Value, Note string
	// Keep: no level drops the note (what the user confirms by signing).
	Keep bool
	gap  bool
	// embedded: the line of WhereRows saying what the embedded sandbox
	// is, dropped from level 2 as a note would be.
	embedded bool
	// env is the environment's name on WhereRows' row, for the smallest
	// rendering, which names it beside the domain.
	env string
}

// TypedDataView is the one view of what a review signs, for every signed
// intent: the journey's facts, the environment, the domain, the message's
// type (and what signing it does), every field with its value and
// meaning, and the digest.
type TypedDataView struct {
	Review intent.Review
	// Danger are the fields drawn in the danger colour: what moves money
	// or grants rights.
	Danger map[string]bool
	// Keep are the fields whose meanings no level drops.
	Keep map[string]bool
	// Pairs are short fields drawn beside their partner from level 4, in
	// order, each where the line has room (else on its own line).
	Pairs map[string][]string
	// Facts are the journey's facts (a withdrawal's route, amounts and
	// quote), drawn first (factRows).
	Facts []intent.Fact
	// Where is the environment the signature is for (WhereRows), drawn
	// beside the domain it signs.
	Where []ReviewRow
}

// WhereRows name the session's environment in a review (issue 27 item 4):
// its name and base URL, and on the embedded sandbox a line saying that
// nothing real moves there. Neither has a note, so the notes of the
// message keep their column.
func WhereRows(app *App) []ReviewRow {
	e, st := app.Target.Env, app.Common.Styles
	rows := []ReviewRow{{Label: "Environment", Value: st.Value.Render(e.Name + " · " + e.BaseURL), env: e.Name}}
	if e.Embedded() {
		rows = append(rows, ReviewRow{Value: st.Muted.Render(config.EmbeddedWords), embedded: true})
	}
	return rows
}

// Render draws the view wd columns wide, shorter as level rises for small
// terminals: 1 drops blank lines, 2 also the notes that would take a line
// of their own (but kept ones), 3 writes the domain without decoration, 4
// puts paired fields beside each other and a long field name one space in
// (LabelWidth). The environment is always there.
// Notes that fit beside their values start in one column.
func (v TypedDataView) Render(c *tui.Common, wd, level int) string {
	st := c.Styles
	lw, indent := LabelWidth(v.Review, level), "  "
	if lw < v.Review.LabelWidth() {
		indent = " "
	}
	var rows []ReviewRow
	add := func(r ReviewRow) {
		if level > 1 && !r.Keep && layout.Width(layout.Field(c, r.Label, lw, r.Value)+"  "+r.Note) > wd {
			r.Note = ""
		}
		if !r.gap || level == 0 {
			rows = append(rows, r)
		}
	}
	for _, r := range factRows(c, v.Facts, lw, wd, level) {
		add(r)
	}
	if len(v.Facts) > 0 {
		add(ReviewRow{gap: true}) // at level 0 only
	}
	d := v.Review.Domain
	domain := `name "` + d.Name + `" · version "` + signer.DomainVersion + `" · chainId ` + layout.Uitoa(d.ChainID)
	if level > 2 {
		domain = `"` + d.Name + `" · v"` + signer.DomainVersion + `" · chainId ` + layout.Uitoa(d.ChainID)
	}
	// The environment is never left out: it is where the review signs, and
	// the top bar may not say it all. The smallest rendering names it with
	// the domain's chain id and name on one line where that fits.
	if level >= 4 {
		for _, r := range v.Where {
			tight := ReviewRow{Label: "Environment", Keep: true,
				Value: st.Value.Render(r.env + " · chainId " + layout.Uitoa(d.ChainID) + ` · "` + d.Name + `"`)}
			if r.env != "" && layout.Width(layout.Field(c, tight.Label, lw, tight.Value)) <= wd {
				add(tight)
				domain = ""
			}
		}
	}
	// From level 2 the embedded sandbox's line joins the environment's row
	// where it fits.
	for i, r := range v.Where {
		switch {
		case domain == "" || r.embedded && level >= 2:
		case level >= 2 && i+1 < len(v.Where) && v.Where[i+1].embedded:
			short := r
			short.Value += st.Muted.Render(" · nothing real moves")
			if layout.Width(layout.Field(c, short.Label, lw, short.Value)) > wd {
				short = r
			}
			add(short)
		default:
			add(r)
		}
	}
	if domain != "" {
		add(ReviewRow{Label: "Domain", Value: st.Value.Render(domain), Keep: true})
	}
	add(ReviewRow{Label: "Message", Value: st.Value.Render(v.Review.Message.PrimaryType()), Note: v.Review.Purpose, Keep: true})
	fields := v.Review.Fields()
	values := map[string]string{}
	for _, f := range fields {
		values[f.Name] = st.Value.Render(f.Value)
		if v.Danger[f.Name] {
			values[f.Name] = st.Danger.Render(f.Value)
		}
	}
	paired := map[string]bool{}
	for _, f := range fields {
		if others, ok := v.Pairs[f.Name]; ok && level > 3 {
			row, notes := ReviewRow{Label: indent + f.Name, Value: values[f.Name]}, []string{}
			for _, other := range others {
				value := row.Value + "  " + layout.InksFor(c).Label.On(other) + " " + values[other]
				if layout.Width(layout.Field(c, row.Label, lw, value)) > wd {
					continue
				}
				paired[other] = true
				row.Value, row.Keep = value, row.Keep || v.Keep[other]
				if m := v.Review.Meanings[other]; m != "" {
					notes = append(notes, m)
				}
			}
			row.Note = strings.Join(notes, " · ")
			add(row)
		} else if !paired[f.Name] {
			add(ReviewRow{Label: indent + f.Name, Value: values[f.Name], Note: f.Meaning, Keep: v.Keep[f.Name]})
		}
	}
	add(ReviewRow{Label: "Digest", Value: st.Value.Render(v.Review.Digest().Hex()), Keep: true})
	return alignNotes(c, rows, lw, wd)
}

// LabelWidth is the label column of r's review at level: from 4, a long
// field name one space in, not two, so a column narrower by one puts an
// address beside it (builderAccountID) at 60 columns.
func LabelWidth(r intent.Review, level int) int {
	if lw := r.LabelWidth(); level >= 4 && lw > 16 {
		return lw - 1
	}
	return r.LabelWidth()
}

// alignNotes draws rows with their notes in one column: right of the
// widest value where its note and every narrower value's fit; a wider
// value's note goes beside it, or below when it does not fit.
func alignNotes(c *tui.Common, rows []ReviewRow, lw, wd int) string {
	// Each width is measured once: every row is held against every other.
	vws, nws := make([]int, len(rows)), make([]int, len(rows))
	for i, x := range rows {
		vws[i], nws[i] = layout.Width(x.Value), layout.Width(x.Note)
	}
	col := 0
	for i, x := range rows {
		w, ok := vws[i], x.Note != ""
		for j, y := range rows {
			ok = ok && (y.Note == "" || vws[j] > w || lw+1+w+2+nws[j] <= wd)
		}
		if ok && w > col {
			col = w
		}
	}
	var b strings.Builder
	for i, x := range rows {
		vw := vws[i]
		switch {
		case x.gap:
		case x.Note != "" && vw <= col:
			b.WriteString(layout.Field(c, x.Label, lw, x.Value+strings.Repeat(" ", col-vw)) + c.Styles.Muted.Render("  "+x.Note))
		default:
			b.WriteString(layout.WrapField(c, x.Label, lw, x.Value, x.Note, wd))
		}
		b.WriteString("\n")
	}
	return b.String()
}
