package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusFitsOnce: status builds its streams for people once per
// command (statusCmd.writers): plain.Fitted asks the terminal its width,
// an ioctl, and status --watch of many ids asked it again for each line.
// No other method of statusCmd calls it.
func TestStatusFitsOnce(t *testing.T) {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	methods := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || !strings.HasSuffix(receiverName(fn.Recv.List[0].Type), "statusCmd") || fn.Name.Name == "writers" {
				continue
			}
			methods++
			ast.Inspect(fn, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "plain" && strings.HasPrefix(sel.Sel.Name, "Fitted") {
						t.Errorf("%s: statusCmd.%s calls plain.%s: its writers are built once (writers)", fset.Position(sel.Pos()), fn.Name.Name, sel.Sel.Name)
					}
				}
				return true
			})
		}
	}
	if methods < 10 {
		t.Fatalf("%d methods of statusCmd found: not the package's files", methods)
	}
}

// receiverName is the name of a receiver's type, with its * if a pointer.
func receiverName(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		return "*" + receiverName(s.X)
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
