package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The house's rules (DESIGN.md §1, docs/architecture.md "How the code
// depends") read from the packages found on disk: a rule names roles by
// the folders of the card, so a package moved within a role keeps its rules,
// and a rule that names a package that is not there fails rather than
// passing unseen.

const module = "github.com/svcwallet/svcwallet"

// pkg is one package of the module: its folder relative to the root, what
// its non-test files import from the module and from outside it, and
// whether one of them carries the package's doc comment.
type pkg struct {
	dir     string
	local   map[string][]string // module-relative import → files importing it
	foreign map[string][]string // other imports → files
	doc     string
	files   []string
}

func readHouse(t *testing.T) map[string]*pkg {
	t.Helper()
	house := map[string]*pkg{}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// dist and dist-extra are the release's output (.gitignore), the
			// vendored modules of the source archive among them.
			if name := d.Name(); p != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs" || name == "dist" || name == "dist-extra") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		k := house[dir]
		if k == nil {
			k = &pkg{dir: dir, local: map[string][]string{}, foreign: map[string][]string{}}
			house[dir] = k
		}
		k.files = append(k.files, p)
		if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name+" ") || f.Doc != nil && f.Name.Name == "main" {
			k.doc = f.Doc.Text()
		}
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if rel, ok := strings.CutPrefix(ip, module+"/"); ok {
				k.local[rel] = append(k.local[rel], p)
			} else if ip != module {
				k.foreign[ip] = append(k.foreign[ip], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(house) < 20 {
		t.Fatalf("found %d packages: is the test running at the module's root?", len(house))
	}
	return house
}

// mustHave fails when a rule names a package that is not in the house.
func mustHave(t *testing.T, house map[string]*pkg, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if house[d] == nil {
			t.Fatalf("a rule names %s, which holds no package: move the rule with the package", d)
		}
	}
}

func under(dir, top string) bool { return dir == top || strings.HasPrefix(dir, top+"/") }

// TestTheCardsHouse: the top level holds the design card's folders and
// internal/ (and main.go), and every package says what it holds.
func TestTheCardsHouse(t *testing.T) {
	house := readHouse(t)
	mustHave(t, house, ".", "tui", "screens", "theme", "signer", "internal/cli", "internal/plain")
	card := []string{"tui", "screens", "service", "signer", "theme", "internal"}
	for dir, k := range house {
		if top, _, _ := strings.Cut(dir, "/"); dir != "." && !slices.Contains(card, top) {
			t.Errorf("%s is outside the card's folders %v", dir, card)
		}
		if dir == "service" {
			t.Errorf("service/ itself holds code (%v): each part of the service layer is a package named for what it holds", k.files)
		}
		if k.doc == "" {
			t.Errorf("%s has no package doc comment saying what it holds", dir)
		}
	}
	for _, d := range []string{"service/exchange", "service/journal", "service/config", "service/sandbox", "service/follow", "service/withdrawal", "service/builder", "service/intent"} {
		mustHave(t, house, d)
	}
}

// TestNoPackageImportsItsParent: dependencies point inward, never up the tree.
func TestNoPackageImportsItsParent(t *testing.T) {
	for dir, k := range readHouse(t) {
		for imp, files := range k.local {
			if dir != imp && under(dir, imp) {
				t.Errorf("%s imports %s, a folder that holds it", files[0], imp)
			}
		}
	}
}

// domainOrder is the service layer from the inside out, with the leaves
// every layer may use first: each imports only those before it.
var domainOrder = []string{
	"internal/startenv", "internal/safetext", "internal/urlhost", "internal/osguard", "signer",
	"service/config", "service/exchange", "service/session", "service/journal", "service/intent",
	"service/follow", "service/builder", "service/withdrawal", "service/target",
}

// TestServiceImportsPointInward: the service layer and the signer know no
// terminal and no face, and each of their packages imports only those inward
// of it; the sandbox takes recovery, wire types and wire names only.
func TestServiceImportsPointInward(t *testing.T) {
	house := readHouse(t)
	mustHave(t, house, domainOrder...)
	terminal := regexp.MustCompile(`^(charm\.land/|github\.com/charmbracelet/|golang\.org/x/term)`)
	for dir, k := range house {
		if !under(dir, "service") && !under(dir, "signer") {
			continue
		}
		for imp := range k.foreign {
			if terminal.MatchString(imp) {
				t.Errorf("%s imports %s: the service layer knows no terminal", dir, imp)
			}
		}
		rank := slices.Index(domainOrder, dir)
		for imp, files := range k.local {
			switch {
			case dir == "service/sandbox":
				if !slices.Contains([]string{"internal/safetext", "signer", "service/exchange", "service/config"}, imp) {
					t.Errorf("%s imports %s: the sandbox shares only wire types, wire names and recovery with the client", files[0], imp)
				}
			case rank < 0:
				t.Errorf("%s is not in the service layer's order: place it in domainOrder", dir)
			case slices.Index(domainOrder[:rank], imp) < 0:
				t.Errorf("%s imports %s, which is not inward of it", files[0], imp)
			}
		}
	}
	// The leaves import none of ours but a leaf before them (osguard
	// quotes the commands it names with safetext).
	for i, leaf := range domainOrder[:4] {
		for imp := range house[leaf].local {
			if !slices.Contains(domainOrder[:i], imp) {
				t.Errorf("%s, a leaf, imports %s", leaf, imp)
			}
		}
	}
	// safetext, which every layer shares, takes the standard library
	// alone: the idna tables of a host's xn-- form live in urlhost.
	for imp, files := range house["internal/safetext"].foreign {
		if first, _, _ := strings.Cut(imp, "/"); strings.Contains(first, ".") {
			t.Errorf("%s imports %s: safetext takes the standard library alone", files[0], imp)
		}
	}
}

// TestFacesAndScreens: a feature under screens/ imports the root model, the
// kit, the theme and the service layer (not the sandbox), never another
// feature; the root model knows no screen; only the command line opens the
// console, and main only the command line.
func TestFacesAndScreens(t *testing.T) {
	house := readHouse(t)
	mustHave(t, house, "screens/kit", "screens/kit/layout", "screens/screentest")
	features := 0
	for dir, k := range house {
		parent, name := path.Split(dir)
		if parent == "screens/" && name != "kit" && name != "screentest" {
			features++
			for imp, files := range k.local {
				ok := slices.Contains([]string{"tui", "theme", "signer", "internal/safetext", "internal/osguard", "internal/runnext", "screens/kit", "screens/kit/layout"}, imp) ||
					under(imp, "service") && imp != "service/sandbox"
				if !ok {
					t.Errorf("%s imports %s: a feature opens another through kit.Makers", files[0], imp)
				}
			}
		}
		for imp, files := range k.local {
			if under(imp, "screens") && !under(dir, "screens") && dir != "internal/cli" {
				t.Errorf("%s imports %s: only the command line opens the console", files[0], imp)
			}
		}
	}
	if features < 8 {
		t.Errorf("found %d feature packages, want login, home, deposit, withdraw, builder, status, history and board", features)
	}
	for imp := range house["tui"].local {
		if imp != "theme" && imp != "internal/safetext" {
			t.Errorf("tui imports %s: the root model knows no screen and no service", imp)
		}
	}
	for imp := range house["."].local {
		if imp != "internal/cli" && imp != "internal/startenv" && imp != "internal/quitcatch" {
			t.Errorf("main imports %s: it hands the command line its arguments, no more (and initialises startenv and quitcatch first)", imp)
		}
	}
}

// TestServiceNamesNoKeyNorFlag holds the rule that the service layer says
// facts and the faces say words: no string in the service layer (bar the
// sandbox, which is a server), the signer or the leaf helpers names a console
// key ("press ", " esc", "ctrl+") or a command-line flag ("--"), since every
// face shows what the service says.
func TestServiceNamesNoKeyNorFlag(t *testing.T) {
	// What may stay, each with its reason.
	allowed := map[string]string{
		// The words a journal line of an earlier version kept, read back
		// and replaced by today's (journal.currentWords).
		"Quote expired: press r to get a new one and sign again": "an earlier version's journal words",
		// A signing command's own flags (cast's), which the user writes in
		// sign_command whichever face runs it.
		": a key on a command line is visible to every user of the machine; let the command reach its key itself (cast's --ledger, --keystore FILE, --aws)":                                                                                        "cast's flags",
		"let the program read it itself, from a keystore or a device (cast wallet sign --keystore FILE, which asks for its password, or --ledger), or from an environment set for it alone (docs/keys.md, \"A key kept out of the process list\")": "cast's flags (signer.ArgumentSecretFix)",
	}
	keys := []string{"press ", " esc", "ctrl+"}
	// A flag is -- then a letter, after a space, a quote or a bracket or
	// at the start: not the -- inside a keystore file's name (UTC--...).
	flag := regexp.MustCompile(`(^|[\s("'\x60/])--[a-z]`)
	checked := 0
	for dir, k := range readHouse(t) {
		if !(under(dir, "service") || under(dir, "signer") || slices.Contains(domainOrder[:3], dir)) || dir == "service/sandbox" {
			continue
		}
		for _, f := range k.files {
			checked++
			eachString(t, f, func(at token.Position, s string) {
				if _, ok := allowed[s]; ok {
					return
				}
				for _, key := range keys {
					if strings.Contains(strings.ToLower(s), key) {
						t.Errorf("%s: %q names a console key (%q): the service says the fact, each face its own words", at, s, key)
					}
				}
				if flag.MatchString(s) {
					t.Errorf("%s: %q names a command-line flag: the service says the fact, each face its own words", at, s)
				}
			})
		}
	}
	if checked < 50 {
		t.Fatalf("checked %d files of the service layer", checked)
	}
}

// eachString calls do with each string literal of the Go file f, unquoted,
// and where it is.
func eachString(t *testing.T, f string, do func(at token.Position, s string)) {
	t.Helper()
	fset := token.NewFileSet()
	parsed, err := parser.ParseFile(fset, f, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(parsed, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				do(fset.Position(lit.Pos()), s)
			}
		}
		return true
	})
}

// TestFilesStayShort: every file of non-test Go stays under 500 lines (CONTRIBUTING:
// a longer file holds more than one thing; split it where a reader would).
func TestFilesStayShort(t *testing.T) {
	for _, k := range readHouse(t) {
		for _, f := range k.files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(b, []byte("\n")); n >= 500 {
				t.Errorf("%s has %d lines: split it (files stay under 500)", f, n)
			}
		}
	}
}

// TestOnlyTheDrawerWritesToTheTerminal: the console's frames and sequences
// are written by its drawer (internal/termdraw), which turns Bubble Tea's
// renderer off. A Bubble Tea command that writes to the terminal itself, or
// takes it, would write behind the drawer's back (out of order with the
// frames, or never): a sequence goes out as tea.Raw, which the drawer's
// filter writes. The view's fields the drawer does not draw are refused too.
func TestOnlyTheDrawerWritesToTheTerminal(t *testing.T) {
	writes := []string{"SetClipboard", "ReadClipboard", "SetPrimaryClipboard", "ReadPrimaryClipboard",
		"RequestBackgroundColor", "RequestForegroundColor", "RequestCursorColor", "RequestCursorPosition",
		"RequestCapability", "RequestTerminalVersion", "RequestWindowSize", "Println", "Printf", "ClearScreen", "Exec", "ExecProcess", "Suspend"}
	drawn := []string{"Content", "AltScreen", "MouseMode", "KeyboardEnhancements"}
	undrawn := []string{"WindowTitle", "ProgressBar", "ReportFocus", "DisableBracketedPasteMode"}
	house := readHouse(t)
	mustHave(t, house, "internal/termdraw")
	checked := 0
	for dir, k := range house {
		if dir == "internal/termdraw" {
			continue
		}
		for _, f := range k.files {
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			tea := importedAs(parsed, "charm.land/bubbletea/v2", "tea")
			if tea == "" {
				continue
			}
			checked++
			views := viewsMade(parsed, tea)
			ast.Inspect(parsed, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.SelectorExpr:
					if x, ok := n.X.(*ast.Ident); ok && views[x.Name] && !slices.Contains(drawn, n.Sel.Name) {
						t.Errorf("%s: the view's %s is not drawn by the console's drawer (it draws %v)", fset.Position(n.Pos()), n.Sel.Name, drawn)
					}
					if x, ok := n.X.(*ast.Ident); ok && x.Name == tea && slices.Contains(writes, n.Sel.Name) {
						t.Errorf("%s: %s.%s writes to the terminal behind the console's drawer: send the sequence as tea.Raw, which the drawer writes in order with its frames", fset.Position(n.Pos()), tea, n.Sel.Name)
					}
					if slices.Contains(undrawn, n.Sel.Name) {
						t.Errorf("%s: the view's %s is not drawn by the console's drawer (it draws %v): draw it there first", fset.Position(n.Pos()), n.Sel.Name, drawn)
					}
				case *ast.CompositeLit:
					if s, ok := n.Type.(*ast.SelectorExpr); ok && s.Sel.Name == "View" {
						for _, e := range n.Elts {
							if kv, ok := e.(*ast.KeyValueExpr); ok && !slices.Contains(drawn, fmt.Sprint(kv.Key)) {
								t.Errorf("%s: the view's %v is not drawn by the console's drawer (it draws %v)", fset.Position(kv.Pos()), kv.Key, drawn)
							}
						}
					}
				}
				return true
			})
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d files using Bubble Tea", checked)
	}
}

// viewsMade are the names a file gives the views it makes (v :=
// tea.NewView(...)), whose every field but the drawn ones is refused.
func viewsMade(f *ast.File, tea string) map[string]bool {
	views := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, rhs := range as.Rhs {
			call, ok := rhs.(*ast.CallExpr)
			if !ok {
				continue
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewView" {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == tea {
					if id, ok := as.Lhs[i].(*ast.Ident); ok {
						views[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return views
}

// TestNoForeignCgo: no package outside the standard library that the
// program links has cgo files. One such package makes every binary and
// test binary link with gcc (the external linker), which roughly doubled
// the suite's link time when go-ethereum's crypto brought libsecp256k1;
// the standard library's cgo (net, os/user) links internally. Tests may
// link one to cross-check against it (signer's tests link go-ethereum).
func TestNoForeignCgo(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}{{end}}", "./...")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	if cgo := strings.Fields(string(out)); len(cgo) > 0 {
		t.Errorf("the program links packages written partly in C: %s; choose a pure-Go package or path (`go mod why PACKAGE` says who imports it)", strings.Join(cgo, ", "))
	}
}

// TestOneWrapper: text is wrapped by tui.Wrap (layout.WrapTo on screens)
// alone. ansi.Wrap and ansi.Wordwrap break after every hyphen, splitting a
// quote id, a transfer id or an environment's name ("q-" at a line's end)
// so that neither piece can be read whole or searched for.
func TestOneWrapper(t *testing.T) {
	const home = "tui/wrap.go"
	house := readHouse(t)
	mustHave(t, house, "tui")
	found := false
	for _, k := range house {
		for _, f := range k.files {
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			name := importedAs(parsed, "github.com/charmbracelet/x/ansi", "ansi")
			if name == "" {
				continue
			}
			ast.Inspect(parsed, func(n ast.Node) bool {
				sel, ok := n.(*ast.SelectorExpr)
				if !ok || (sel.Sel.Name != "Wrap" && sel.Sel.Name != "Wordwrap") {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); !ok || x.Name != name {
					return true
				}
				if filepath.ToSlash(f) == home {
					found = true
					return true
				}
				t.Errorf("%s: %s.%s breaks ids after their hyphen: wrap with tui.Wrap (layout.WrapTo)", fset.Position(sel.Pos()), name, sel.Sel.Name)
				return true
			})
		}
	}
	if !found {
		t.Errorf("%s does not wrap with ansi.Wrap: the rule checks nothing", home)
	}
}

// importedAs is the name f gives the package at path (its own name, as
// given, unless renamed), or "" when f does not import it.
func importedAs(f *ast.File, path, given string) string {
	for _, imp := range f.Imports {
		if imp.Path.Value == strconv.Quote(path) {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return given
		}
	}
	return ""
}
