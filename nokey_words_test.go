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

// TestNoKeyWordedOnce: that no key here signs for an account is worded by
// one rule (signer.NoKeyError, built by signer.Lookup); the faces follow it
// with their own ways of bringing a key. A face's string that says the fact
// in words of its own ("no key for 0x…", "cannot sign for …") fails here;
// only a line that names no account ("… for this account: …") may be
// shorter, where a screen has no room for the address.
func TestNoKeyWordedOnce(t *testing.T) {
	fact := regexp.MustCompile(`(?i)\bno (signing )?key (here )?(signs )?for\b|\bcannot sign for\b`)
	checked := 0
	for _, k := range readHouse(t) {
		for _, f := range k.files {
			if f == "signer/lookup.go" || strings.HasPrefix(f, "service/sandbox/") {
				continue // the rule itself; the sandbox is a server, not a face
			}
			checked++
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
				if err != nil || !fact.MatchString(s) || strings.Contains(s, " for this account") {
					return true
				}
				t.Errorf("%s: %q words that no key signs in its own words: say signer.NoKeyError's, then the face's ways", fset.Position(lit.Pos()), s)
				return true
			})
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d files", checked)
	}
}
