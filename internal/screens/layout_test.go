package screens

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// domainPackages are the domain packages beside the wire client (not the
// sandbox, nor the test support) that a feature may import.
var domainPackages = []string{"config", "journal", "follow", "intent", "withdrawal", "builder"}

// TestFeaturesImportNoFeature holds DESIGN.md §1 (docs/architecture.md, "How
// the code depends"): a feature package imports only tui, safetext, osguard,
// exchange and its domain packages (not the sandbox), signer, theme, the kit
// and its layout, never another feature (they open one another through
// kit.Makers), so none can import another in a circle. Tests may import
// what they need.

func TestFeaturesImportNoFeature(t *testing.T) {
	allowed := map[string]bool{"github.com/svcwallet/svcwallet/internal/tui": true, "github.com/svcwallet/svcwallet/internal/exchange": true, "github.com/svcwallet/svcwallet/internal/signer": true,
		"github.com/svcwallet/svcwallet/internal/theme": true, "github.com/svcwallet/svcwallet/internal/screens/kit": true, "github.com/svcwallet/svcwallet/internal/screens/kit/layout": true, "github.com/svcwallet/svcwallet/internal/safetext": true, "github.com/svcwallet/svcwallet/internal/osguard": true}
	domain := func(path string) bool {
		return slices.Contains(domainPackages, strings.TrimPrefix(path, "github.com/svcwallet/svcwallet/internal/"))
	}
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	features := 0
	for _, d := range dirs {
		if !d.IsDir() || d.Name() == "kit" || d.Name() == "screentest" || d.Name() == "testdata" {
			continue
		}
		features++
		files, _ := filepath.Glob(filepath.Join(d.Name(), "*.go"))
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
				if strings.HasPrefix(path, "github.com/svcwallet/svcwallet/") && !allowed[path] && !domain(path) {
					t.Errorf("%s imports %s", f, path)
				}
			}
		}
	}
	if features < 8 {
		t.Fatalf("found %d feature packages, want login, home, deposit, withdraw, builder, status, history and board", features)
	}
}
