package sandbox

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fromClient is what the sandbox may take from the client's packages besides
// wire types and error codes: EIP-712 recovery, which the vectors pin.
var fromClient = map[string]bool{"signer.Recover": true}

// clientRules are the client's encodings of rules the sandbox must apply
// with its own code, though they are types and constants, not functions.
var clientRules = map[string]bool{
	"signer.Permission": true, "signer.Permissions": true, "signer.AllPermissions": true,
	"signer.PermAdmin": true, "signer.PermInternalTransfer": true, "signer.PermExternalTransfer": true,
	"signer.PermWithdraw": true, "signer.PermVaultInvestor": true, "signer.PermTrade": true,
	"exchange.TokenDecimals": true,
}

// TestSandboxChecksWithItsOwnCode fails when the sandbox's code calls a
// function of the project's other packages (exchange.ValidateAddress,
// exchange.ParseAmount, exchange.RawUnits, signer.ParseFeeRate, ...) or uses
// their permission and decimal encodings: a request judged by the client's
// own validators cannot show that a validator is wrong.
func TestSandboxChecksWithItsOwnCode(t *testing.T) {
	funcs := map[string]map[string]bool{} // import path → its package-level functions
	files := parseDir(t, ".")
	if len(files) < 10 {
		t.Fatalf("read %d sandbox files; is the test running in service/sandbox?", len(files))
	}
	for _, f := range files {
		imports := map[string]string{} // local name → import path of this module
		for _, imp := range f.file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local, ok := strings.CutPrefix(path, "github.com/svcwallet/svcwallet/")
			if !ok {
				continue
			}
			name := filepath.Base(path)
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imports[name] = path
			if funcs[path] == nil {
				funcs[path] = packageFuncs(t, filepath.Join("../..", local))
			}
		}
		ast.Inspect(f.file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok || imports[pkg.Name] == "" {
				return true
			}
			use := pkg.Name + "." + sel.Sel.Name
			if clientRules[use] || funcs[imports[pkg.Name]][sel.Sel.Name] && !fromClient[use] {
				t.Errorf("%s uses %s: check the request with the sandbox's own code, written from the spec", f.fset.Position(sel.Pos()), use)
			}
			return true
		})
	}
	if len(funcs["github.com/svcwallet/svcwallet/service/exchange"]) == 0 || !funcs["github.com/svcwallet/svcwallet/service/exchange"]["ValidateAddress"] || !funcs["github.com/svcwallet/svcwallet/signer"]["ParseFeeRate"] {
		t.Fatalf("the client's validators were not found among its functions: %d service functions", len(funcs["github.com/svcwallet/svcwallet/service/exchange"]))
	}
}

type parsedFile struct {
	fset *token.FileSet
	file *ast.File
}

// parseDir parses the non-test Go files of dir.
func parseDir(t *testing.T, dir string) []parsedFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []parsedFile
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parsedFile{fset, f})
	}
	return out
}

// packageFuncs names the package-level functions declared in dir.
func packageFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, f := range parseDir(t, dir) {
		for _, d := range f.file.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil {
				out[fn.Name.Name] = true
			}
		}
	}
	return out
}
