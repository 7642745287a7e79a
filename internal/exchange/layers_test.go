package exchange_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestDomainImportsPointInward holds the order of the domain packages
// (docs/architecture.md, "How the code depends"): each imports only the svcwallet packages inward
// of it, so none can reach a terminal, the sandbox or a package that
// depends on it.
func TestDomainImportsPointInward(t *testing.T) {
	const mod = "github.com/svcwallet/svcwallet/internal/"
	inner := []string{mod + "safetext", mod + "signer", mod + "osguard"}
	allowed := map[string][]string{
		"../config":     inner,
		".":             append([]string{mod + "config"}, inner...),
		"../journal":    append([]string{mod + "exchange", mod + "config"}, inner...),
		"../intent":     append([]string{mod + "exchange", mod + "config", mod + "journal"}, inner...),
		"../builder":    append([]string{mod + "exchange", mod + "config", mod + "journal", mod + "intent"}, inner...),
		"../follow":     append([]string{mod + "exchange", mod + "config", mod + "journal"}, inner...),
		"../withdrawal": append([]string{mod + "exchange", mod + "config", mod + "journal", mod + "follow", mod + "intent"}, inner...),
	}
	for dir, ok := range allowed {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		if len(files) == 0 {
			t.Fatalf("no Go files in %s", dir)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range parsed.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasPrefix(path, "github.com/svcwallet/svcwallet/") && !slices.Contains(ok, path) {
					t.Errorf("%s imports %s", f, path)
				}
			}
		}
	}
}
