package main

import (
	"go/parser"
	"go/token"
	"os"
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

// TestStartEnvInitRunsBeforeAnyChildStarter: the order itself, as this very
// binary (main's imports and testing's) initialises: before startenv's init,
// only packages that need nothing of os (os itself excepted) ran theirs,
// so none could have started a child. TestStartEnvIsInitialisedFirst holds
// the reason; this holds the result, should a dependency's imports change.
func TestStartEnvInitRunsBeforeAnyChildStarter(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-test", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps -test: %v", err)
	}
	needsOS := map[string]bool{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		if len(f) > 0 {
			needsOS[f[0]] = slices.Contains(f[1:], "os")
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	trace, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test binary again: %v\n%s", err, trace)
	}
	var before []string
	for line := range strings.Lines(string(trace)) {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "init" {
			continue
		}
		if f[1] == module+"/internal/startenv" {
			for _, pkg := range before {
				if known, ok := needsOS[pkg]; !ok || known {
					t.Errorf("%s initialised before internal/startenv and may start a child: it saw TMUX and the secrets", pkg)
				}
			}
			return
		}
		if f[1] != "os" {
			before = append(before, f[1])
		}
	}
	t.Fatalf("internal/startenv's init is not in the init trace:\n%s", trace)
}
