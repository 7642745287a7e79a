package main

import (
	"go/parser"
	"go/token"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestStartEnvIsInitialisedFirst: internal/startenv's init, which takes the
// secret variables and hides TMUX, runs before any package that can start
// a child (lipgloss runs tmux info at initialisation). Go initialises next
// the first package by import path whose imports are all initialised: one
// that needs nothing os does not is ready with os and sorts before os/exec.
// So main imports it, and it imports nothing beyond os's own.
func TestStartEnvIsInitialisedFirst(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	imported := false
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/internal/startenv" {
			imported = true
		}
	}
	if !imported {
		t.Error("main.go does not import internal/startenv: nothing takes the secrets and hides TMUX before the dependencies initialise")
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		return strings.Fields(string(out))
	}
	ofOS := deps("os")
	for _, d := range deps("./internal/startenv") {
		if d != "os" && d != module+"/internal/startenv" && !slices.Contains(ofOS, d) {
			t.Errorf("internal/startenv needs %s, which os does not: its init may then run after a dependency's that starts a child", d)
		}
	}
}
