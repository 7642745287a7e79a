package osguard_test

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestChildEnv: every SVCWALLET_ variable (any case) is left out of a
// child's environment, everything else is kept.
func TestChildEnv(t *testing.T) {
	t.Setenv("SVCWALLET_PRIVATE_KEY", "0x01")
	t.Setenv("SVCWALLET_API_KEY", "k")
	t.Setenv("svcwallet_lower", "1")
	t.Setenv("CHILDENV_KEPT", "1")
	env := osguard.ChildEnv()
	for _, kv := range env {
		if strings.HasPrefix(strings.ToUpper(kv), "SVCWALLET_") {
			t.Errorf("%s reaches children", kv[:strings.IndexByte(kv, '=')])
		}
	}
	if !slices.Contains(env, "CHILDENV_KEPT=1") {
		t.Error("CHILDENV_KEPT is not passed on")
	}
	if c := osguard.CommandContext(context.Background(), "true"); !slices.Equal(c.Env, env) {
		t.Error("CommandContext does not give its child ChildEnv")
	}
}

// TestOnlyCommandStartsChildren: no code outside osguard.CommandContext starts a
// process (exec.Command, exec.CommandContext, os.StartProcess,
// syscall.Exec or ForkExec), so none can forget to clean its environment.
// Tests may: they start stand-ins and the test binary.
func TestOnlyCommandStartsChildren(t *testing.T) {
	starters := map[string][]string{
		"exec": {"Command", "CommandContext"}, "os": {"StartProcess"},
		"syscall": {"Exec", "ForkExec", "StartProcess"}, "unix": {"Exec"},
	}
	root := "../.."
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		// The release's output (.gitignore), the source archive's vendored
		// modules among them, is not svcwallet's code.
		if err == nil && d.IsDir() && (d.Name() == "dist" || d.Name() == "dist-extra") {
			return filepath.SkipDir
		}
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			filepath.ToSlash(path) == "../../internal/osguard/child.go" || strings.Contains(filepath.ToSlash(path), "/testdata/") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && slices.Contains(starters[id.Name], sel.Sel.Name) {
				t.Errorf("%s: %s.%s starts a child outside osguard.CommandContext, which cleans its environment", fset.Position(sel.Pos()), id.Name, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCappedBufferSaid: what a failure repeats of a child's output (the
// browser opener's, a notify command's) is one line, no escape sequence
// reaching the terminal, its first 200 bytes.
func TestCappedBufferSaid(t *testing.T) {
	out := osguard.CappedBuffer{Max: 4 << 10}
	fmt.Fprintf(&out, "no method \x1b[2Jhere\nsecond\tline %s", strings.Repeat("x", 300))
	said := out.Said()
	if !strings.HasPrefix(said, "no method here second line xx") || strings.ContainsAny(said, "\x1b\n\t") || len(said) > 200+len("…") {
		t.Errorf("said %q", said)
	}
}
