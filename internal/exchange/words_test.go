package exchange_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDomainNamesNoKeyNorFlag holds the rule that the domain says facts
// and the faces say words: no string in a domain package names a console
// key ("press ", " esc", "ctrl+") or a command-line flag ("--"), since
// both the console and the command line show what the domain says.
func TestDomainNamesNoKeyNorFlag(t *testing.T) {
	// What may stay, each with its reason.
	allowed := map[string]string{
		// The words a journal line of an earlier version kept, read back
		// and replaced by today's (journal.currentWords).
		"Quote expired: press r to get a new one and sign again": "an earlier version's journal words",
		// A signing command's own flags (cast's), which the user writes in
		// sign_command whichever face runs it.
		"it holds 64 hex digits (in a row, or split by spaces or : - . _ , ;), the shape of a private key: a key on a command line is visible to every user of the machine; let the command reach its key itself (cast's --ledger, --keystore FILE, --aws)": "cast's flags",
	}
	keys := []string{"press ", " esc", "ctrl+"}
	// A flag is -- then a letter, after a space, a quote or a bracket or
	// at the start: not the -- inside a keystore file's name (UTC--...).
	flag := regexp.MustCompile(`(^|[\s("'\x60/])--[a-z]`)
	for _, dir := range []string{".", "../config", "../journal", "../follow", "../intent", "../withdrawal", "../builder", "../signer", "../osguard", "../safetext"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(files) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(parsed, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				if _, ok := allowed[s]; ok {
					return true
				}
				for _, k := range keys {
					if strings.Contains(strings.ToLower(s), k) {
						t.Errorf("%s: %q names a console key (%q): the domain says the fact, each face its own words", fset.Position(lit.Pos()), s, k)
					}
				}
				if flag.MatchString(s) {
					t.Errorf("%s: %q names a command-line flag: the domain says the fact, each face its own words", fset.Position(lit.Pos()), s)
				}
				return true
			})
		}
	}
}
