package screens

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFeaturesImportNoFeature holds DESIGN.md §1: a feature package imports
// only tui, clean, service and its domain packages (not the sandbox),
// signer, theme, the kit and its layout, never another feature (they open
// one another through kit.Makers), so none can import another in a circle. Tests may import what they need.
func TestFeaturesImportNoFeature(t *testing.T) {
	allowed := map[string]bool{"svcwallet/tui": true, "svcwallet/service": true, "svcwallet/signer": true,
		"svcwallet/theme": true, "svcwallet/screens/kit": true, "svcwallet/screens/kit/layout": true, "svcwallet/clean": true}
	domain := func(path string) bool {
		return strings.HasPrefix(path, "svcwallet/service/") && !strings.HasPrefix(path, "svcwallet/service/sandbox") &&
			!strings.HasPrefix(path, "svcwallet/service/servicetest")
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
				if strings.HasPrefix(path, "svcwallet/") && !allowed[path] && !domain(path) {
					t.Errorf("%s imports %s", f, path)
				}
			}
		}
	}
	if features < 6 {
		t.Fatalf("found %d feature packages, want login, home, deposit, withdraw, builder and status", features)
	}
}
