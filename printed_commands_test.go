package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPrintedCommandsComeFromRunnext holds the rule that a face prints a
// svcwallet command to run through runnext (the command line's invocation,
// plain mode's and the console's Command), the one way that carries the
// --env in use and the --config named and quotes them for the user's
// shell: no string of the faces writes, as a line to run ("run svcwallet
// status", "`svcwallet history`", "(svcwallet doctor", a line of its own),
// a command that takes --env or --config, which would run on the default
// config. Help (the consts of the long help and topics, a command's
// Long, Short and Example, and submitCommand's, which makes the two submit
// commands) names commands in general and may. key,
// sandbox, help, man, version and completion take neither flag, so a
// literal of them runs as printed and is not looked for.
func TestPrintedCommandsComeFromRunnext(t *testing.T) {
	line := regexp.MustCompile("(?i)(^\\s+|\\n\\s*|run:? |\x60|\\(|with )svcwallet (status|withdraw|history|doctor|deposit|builder|auth|env)\\b")
	checked := 0
	for dir, k := range readHouse(t) {
		if !(under(dir, "internal/cli") || under(dir, "internal/plain") || under(dir, "screens") || under(dir, "tui")) {
			continue
		}
		for _, f := range k.files {
			checked++
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			help := map[ast.Node]bool{} // submitCommand's Short, Long and Example
			ast.Inspect(parsed, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GenDecl:
					return n.Tok != token.CONST // the long help and the topics
				case *ast.CallExpr:
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "submitCommand" {
						for _, a := range n.Args {
							help[a] = true
						}
					}
				case *ast.KeyValueExpr:
					id, ok := n.Key.(*ast.Ident)
					return !ok || id.Name != "Long" && id.Name != "Short" && id.Name != "Example"
				case *ast.BasicLit:
					s, err := strconv.Unquote(n.Value)
					if n.Kind != token.STRING || err != nil || help[n] {
						return true
					}
					if m := line.FindString(s); m != "" {
						t.Errorf("%s: %q writes %q as a line to run: print it with runnext (invocation.command, App.Command), which carries --env and --config", fset.Position(n.Pos()), s, strings.TrimSpace(m))
					}
				}
				return true
			})
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d files of the faces: is the test running at the module's root?", checked)
	}
}
