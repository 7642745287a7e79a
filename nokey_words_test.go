package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// TestNoKeyWordedOnce: that no key here signs for an account is worded by
// one rule (signer.NoKeyError, built by signer.Lookup); the faces follow it
// with their own ways of bringing a key (NoKeyError.Steps). A face's
// string that says the fact in words of its own ("no key for 0x…",
// "cannot sign for …", "no signing key: …") fails here;
// only a line that names no account ("… for this account: …") may be
// shorter, where a screen has no room for the address. The set of ways is
// the rule's too: a face's string naming the config's signer as a way
// ("signer (config)") words its own set.
func TestNoKeyWordedOnce(t *testing.T) {
	fact := regexp.MustCompile(`(?i)\bno (signing )?key (here )?(signs )?for\b|\bcannot sign for\b|\bno signing key\b`)
	ways := regexp.MustCompile(`(?i)\bsigner \(config\)|\bsigner in the config\)`)
	checked := 0
	for _, k := range readHouse(t) {
		for _, f := range k.files {
			if f == "signer/lookup.go" || strings.HasPrefix(f, "service/sandbox/") {
				continue // the rule itself; the sandbox is a server, not a face
			}
			kit := strings.HasPrefix(f, "screens/screentest/") // the screens' tests look for the ways' words
			checked++
			eachString(t, f, func(at token.Position, s string) {
				if fact.MatchString(s) && !strings.Contains(s, " for this account") {
					t.Errorf("%s: %q words that no key signs in its own words: say signer.NoKeyError's, then the face's ways", at, s)
				}
				if !kit && ways.MatchString(s) {
					t.Errorf("%s: %q words the ways to bring a key in its own set: say signer.NoKeyError.Steps around the face's own", at, s)
				}
			})
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d files", checked)
	}
}

// TestOneSigningKeyRule: whether a key here signs, asked before a
// journey's first question, is the service's one rule for each journey
// (withdrawal.SigningKey, builder.SigningKey), which every face asks: a
// screen or a face calling signer.Lookup.Signing itself holds a second
// path to the check, which the service's rule can outgrow unseen.
func TestOneSigningKeyRule(t *testing.T) {
	checked := 0
	for dir, k := range readHouse(t) {
		if under(dir, "service") || under(dir, "signer") {
			continue
		}
		for _, f := range k.files {
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			ast.Inspect(file, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok && calls(call, "Signing") {
					t.Errorf("%s calls .Signing: ask the journey's rule in service/ (withdrawal.SigningKey, builder.SigningKey)", f)
				}
				return true
			})
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d files", checked)
	}
}

// calls reports whether call is of a method or a function named name.
func calls(call *ast.CallExpr, name string) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == name
}
