package main

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

// pathNamed is what the code names a path by: path, dir, real, file, or a
// name ending in Path, Dir, File or Folder.
var pathNamed = regexp.MustCompile(`^(path|dir|real|file|[A-Za-z]*(Path|Dir|File|Folder))$`)

// formatVerb is one verb of a format string.
var formatVerb = regexp.MustCompile(`%[-+# 0-9.*\[\]]*[a-zA-Z%]`)

// TestPathsPrintedEscaped: a path is printed for a person to read escaped
// (safetext.Shown; one typed, which may hold most of a key, with its hex
// runs cut first: safetext.ShownTyped), never raw nor cleaned (safetext.Line, Text, Quoted),
// which names another file: a no-break space read as a space, a bidi
// override reordering the name, an escape sequence acting on the terminal.
// It reads the house's code for a value named as a path (pathNamed) given
// to a format's %s or %v, joined to words ("in " + path), or cleaned; what
// stays is named below, by file and name, with its reason. A name it does
// not know as a path (p, m.From) passes unseen: name paths so.
func TestPathsPrintedEscaped(t *testing.T) {
	allowed := map[string]string{
		"internal/cli/help.go: path":            "a command's path in the help (cobra's), not a file",
		"internal/cli/help.go: c.CommandPath()": "a command's path in the help (cobra's), not a file",
		"screens/earlier.go: path()":            "the screen's own function, which shows the path escaped (safetext.Shown)",
		"internal/exchangetest/files.go: path":  "test support: a test's failure message",
		"internal/osguard/acl.go: path":         "icacls's command line for Windows, run as printed: quoted for cmd, not Go",
	}
	house := readHouse(t)
	seen, checked := map[string]bool{}, 0
	for _, k := range house {
		for _, f := range k.files {
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			refuse := func(e ast.Expr, how string) {
				name := exprName(e)
				if !pathNamed.MatchString(lastName(name)) {
					return
				}
				key := filepath.ToSlash(f) + ": " + name
				if _, ok := allowed[key]; ok {
					seen[key] = true
					return
				}
				t.Errorf("%s: %s %s: name a path escaped (safetext.Shown), or say here why it is not a path printed", fset.Position(e.Pos()), name, how)
			}
			ast.Inspect(parsed, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BinaryExpr:
					// Words joined to a path: "in " + path. A path built
					// (path + ".lock") is no sentence.
					if n.Op == token.ADD && (hasSpace(n.X) || hasSpace(n.Y)) {
						refuse(n.X, "joined to words")
						refuse(n.Y, "joined to words")
					}
				case *ast.CallExpr:
					if fn := exprName(n.Fun); (fn == "safetext.Line" || fn == "safetext.Text" || fn == "safetext.Quoted") && len(n.Args) > 0 {
						refuse(n.Args[0], "cleaned ("+fn+")")
					}
					formatArgs(n, func(verb string, arg ast.Expr) {
						if !strings.HasSuffix(verb, "q") && !strings.HasSuffix(verb, "w") {
							refuse(arg, "printed raw ("+verb+")")
						}
					})
				}
				return true
			})
		}
	}
	if checked < 200 {
		t.Fatalf("read %d files: is the test running at the module's root?", checked)
	}
	for key, why := range allowed {
		if !seen[key] {
			t.Errorf("%s is allowed (%s) but is no longer there: take it out of the list", key, why)
		}
	}
}

// formatArgs calls f with each verb of call's format string (its first
// string literal holding a %) and the argument it prints.
func formatArgs(call *ast.CallExpr, f func(verb string, arg ast.Expr)) {
	for i, a := range call.Args {
		lit, ok := a.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			continue
		}
		format, err := strconv.Unquote(lit.Value)
		if err != nil || !strings.Contains(format, "%") {
			continue
		}
		next := i + 1
		for _, verb := range formatVerb.FindAllString(format, -1) {
			if verb == "%%" {
				continue
			}
			if next >= len(call.Args) {
				return
			}
			f(verb, call.Args[next])
			next++
		}
		return
	}
}

// exprName is how e reads in the code when it names a value (x, a.b,
// a.b() as "a.b()"), else "".
func exprName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		if s := exprName(x.X); s != "" {
			return s + "." + x.Sel.Name
		}
	case *ast.CallExpr:
		if s := exprName(x.Fun); s != "" {
			return s + "()"
		}
	}
	return ""
}

// lastName is the last name of exprName's: Path of j.Path(), Dir of
// filepath.Dir().
func lastName(name string) string {
	name = strings.TrimSuffix(name, "()")
	return name[strings.LastIndex(name, ".")+1:]
}

// hasSpace reports whether e is a string literal holding a space: words.
func hasSpace(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return false
	}
	s, err := strconv.Unquote(lit.Value)
	return err == nil && strings.Contains(s, " ")
}
