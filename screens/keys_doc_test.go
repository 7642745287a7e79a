package screens

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/screens/kit"
)

// consoleKeysDoc lists the console's keys, read from the key bindings the
// screens declare (key.NewBinding), so it cannot offer a key they lack.
const consoleKeysDoc = "../docs/console-keys.md"

// keySections are the files that declare bindings, in the order a user meets
// them, each with the heading its keys go under.
var keySections = []struct{ file, heading string }{
	{"../tui/keys.go", "Everywhere"},
	{"kit/list.go", "Every list (deposit addresses, routes, History, the watch board)"},
	{"kit/form.go", "Every form (login, withdrawal destination, builder)"},
	{"kit/signing.go", "A review waiting for clef or a signing command"},
	{"kit/offline.go", "A review that can prepare for offline signing"},
	{"earlier.go", "A journal an earlier svcwallet left beside the one in use (before the login or Home)"},
	{"login/login.go", "Log in"},
	{"home/home.go", "Home"},
	{"deposit/deposit.go", "Deposit addresses"},
	{"withdraw/route.go", "Withdraw: route"},
	{"withdraw/destination.go", "Withdraw: destination"},
	{"withdraw/quote.go", "Withdraw: quote"},
	{"withdraw/review.go", "Withdraw: review and sign"},
	{"withdraw/review_loss.go", "Withdraw: review of a withdrawal that is mostly fee"},
	{"withdraw/bridge_confirm.go", "The bridge funding address changed"},
	{"status/status.go", "A withdrawal's status"},
	{"history/history.go", "Withdrawal history"},
	{"board/board.go", "Watch board"},
	{"board/board_export.go", "Watch board: export"},
	{"status/status_lookup.go", "Watch board: a row's status screen, the next id typed"},
	{"status/status_scroll.go", "A withdrawal's status taller than the terminal"},
	{"builder/builder.go", "Builder authorization"},
	{"builder/review.go", "Builder: review and sign"},
	{"builder/review_grant.go", "Builder: review of an API key that may move funds"},
	{"builder/result.go", "Builder authorized"},
}

// builtFromData are the files whose bindings are made from data rather than
// literals, and where that data is listed instead.
var builtFromData = map[string]string{
	"home/home.go":       "the menu's letters, listed from homeMenu",
	"builder/builder.go": "the digits 1-6, named by ←/→ 1-6",
	"kit/legend.go":      "the full help's legend of marks, not keys",
}

// sectionNotes say, under a section's table, where its keys act
// differently from what the table alone would suggest.
var sectionNotes = map[string]string{
	"../tui/keys.go": "On unix `ctrl+z` stops the console as a shell's job and `fg` brings it back (not a binding:\n" +
		"the drawer takes it); started by tmux or a terminal with no shell between, nothing can continue it, so it does nothing.\n" +
		"`esc` does not go back while a review or the bridge confirmation holds its keys (" +
		fmt.Sprintf("%g s from when it shows, %g s where the terminal tells a held key's repeats", kit.ShownGuard.Seconds(), kit.ShownGuardTold.Seconds()) + "):\n" +
		"it is held with them, and the footer offers it once they act.\n" +
		"An answer there (`enter`, the loss question's `y`, the builder grant's `y`, the bridge's `Y`) acts once the terminal\n" +
		"answers a question asked after it, with no key between: a key between makes both a paste's, and nothing acts\n" +
		fmt.Sprintf("(a terminal that never answers: %g s after the key).", kit.KeyGuard.Seconds()),
	"kit/list.go": "`S` acts on the watch board, the one list with orders, once it has two rows or more.\n" +
		"On Deposit addresses `g` generates an address: `home` goes to the first row there.",
	"builder/builder.go": "The digits `1` to `6` toggle the permissions in the order listed.",
}

// TestConsoleKeys fails when docs/console-keys.md is not what the bindings
// say; `go test ./screens -run TestConsoleKeys -update` writes it.
func TestConsoleKeys(t *testing.T) {
	want := consoleKeys(t)
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.WriteFile(consoleKeysDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(consoleKeysDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is stale: run go test ./screens -run TestConsoleKeys -update and read the diff", consoleKeysDoc)
	}
}

// keyRow is one key of the doc: the name the footer shows, what it does, and
// every key that acts (a binding without help adds its keys to the one
// before it, as the footer's ↑/↓ names down and j).
type keyRow struct {
	name, does string
	keys       []string
}

func consoleKeys(t *testing.T) string {
	t.Helper()
	sections := map[string][]keyRow{}
	files := append([]string{"../tui/keys.go"}, sourceFiles(t, ".")...)
	for _, file := range files {
		rows := fileKeys(t, file)
		if len(rows) == 0 {
			continue
		}
		if !knownSection(file) {
			t.Fatalf("%s declares keys: name its screen in keySections", file)
		}
		sections[file] = rows
	}
	var b strings.Builder
	b.WriteString("# Console keys\n\n")
	b.WriteString("<!-- Generated by TestConsoleKeys from the screens' key bindings; do not edit.\n")
	b.WriteString("     go test ./screens -run TestConsoleKeys -update -->\n\n")
	b.WriteString("The footer of every screen shows the keys that act at that moment, and `?` shows them all\n(on a small terminal in pages: `? more` turns the page, the last `? close help` closes it;\nesc closes it on any page).\n")
	b.WriteString("A footer too narrow for them all leaves out the keys every list has (↑/↓, pgup/pgdn, home/end,\n/ filter, and a form's tab and ←/→) first, then says a few hints in short words (\"ctrl+d fill in\"\nfor \"ctrl+d fill in the demo key\"; this page and `?` give the whole words), then leaves out as many\nof the rest as it must, and ends with `…`: `?` lists them all.\n")
	b.WriteString("While a text field has focus, letters (q and ? too) and pastes go to the field.\n")
	for _, s := range keySections {
		rows, ok := sections[s.file]
		if !ok {
			t.Fatalf("keySections names %s, which declares no key", s.file)
		}
		fmt.Fprintf(&b, "\n## %s\n\n| key | what it does | keys that act |\n|---|---|---|\n", s.heading)
		for _, r := range rows {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", cell(r.name), cell(r.does), cell("`"+strings.Join(r.keys, "` `")+"`"))
		}
		if note := sectionNotes[s.file]; note != "" {
			fmt.Fprintf(&b, "\n%s\n", note)
		}
	}
	return b.String()
}

func knownSection(file string) bool {
	for _, s := range keySections {
		if s.file == file {
			return true
		}
	}
	return false
}

// sourceFiles are the non-test Go files under dir, the test support aside.
func sourceFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && (d.Name() == "screentest" || d.Name() == "testdata"):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			out = append(out, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fileKeys reads the key.NewBinding calls of one file in source order, and
// the home menu's letters.
func fileKeys(t *testing.T, file string) []keyRow {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rows []keyRow
	last := -1 // the row a binding without help adds its keys to
	ast.Inspect(f, func(n ast.Node) bool {
		if menu := homeMenuRows(n); menu != nil {
			rows = append(rows, menu...)
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || !isCall(call, "key", "NewBinding") {
			return true
		}
		var keys, help []string
		literal := true
		for _, opt := range call.Args {
			o, ok := opt.(*ast.CallExpr)
			if !ok {
				continue
			}
			words, ok := stringArgs(o)
			literal = literal && ok
			switch {
			case isCall(o, "key", "WithKeys"):
				keys = words
			case isCall(o, "key", "WithHelp"):
				help = words
			case isCall(o, "tui", "WithHelp") && len(words) == 3:
				help = words[:2] // the whole words, as the full help says them
			}
		}
		switch {
		case !literal:
			if _, ok := builtFromData[file]; !ok {
				t.Errorf("%s: a binding made from data: list where its keys are named in builtFromData", file)
			}
		case len(help) == 2 && help[0] != "":
			rows, last = addKeyRow(rows, keyRow{name: help[0], does: help[1], keys: keys})
		case last >= 0:
			rows, _ = addKeyRow(rows, keyRow{name: rows[last].name, does: rows[last].does, keys: keys})
		}
		return false
	})
	return rows
}

// addKeyRow adds r, or its keys to the row that already says the same (the
// list's ↑/↓ while a filter is typed), and says which row took them.
func addKeyRow(rows []keyRow, r keyRow) ([]keyRow, int) {
	for i := range rows {
		if rows[i].name == r.name && rows[i].does == r.does {
			for _, k := range r.keys {
				if !slices.Contains(rows[i].keys, k) {
					rows[i].keys = append(rows[i].keys, k)
				}
			}
			return rows, i
		}
	}
	return append(rows, r), len(rows)
}

// homeMenuRows are the home menu's letters, each opening its feature, when n
// declares the menu (its bindings are made from it).
func homeMenuRows(n ast.Node) []keyRow {
	spec, ok := n.(*ast.ValueSpec)
	if !ok || len(spec.Names) != 1 || spec.Names[0].Name != "homeMenu" || len(spec.Values) != 1 {
		return nil
	}
	menu, ok := spec.Values[0].(*ast.CompositeLit)
	if !ok {
		return nil
	}
	var rows []keyRow
	for _, el := range menu.Elts {
		item, ok := el.(*ast.CompositeLit)
		if !ok || len(item.Elts) < 2 {
			continue
		}
		k, ok1 := stringLit(item.Elts[0])
		label, ok2 := stringLit(item.Elts[1])
		if ok1 && ok2 {
			rows = append(rows, keyRow{name: k, does: "open " + label, keys: []string{k}})
		}
	}
	return rows
}

func isCall(c *ast.CallExpr, pkg, name string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg
}

// stringArgs are a call's arguments when every one is a string literal.
func stringArgs(c *ast.CallExpr) ([]string, bool) {
	var out []string
	for _, a := range c.Args {
		s, ok := stringLit(a)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// cell escapes a table cell's | and keeps a lone key such as ` readable.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
