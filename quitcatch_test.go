package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestQuitCatchIsArmedAsSoonAsSignalsCan: internal/quitcatch's init, which
// catches ctrl+\ before Go would dump every goroutine's stack, runs as soon
// as os/signal's has, the earliest a Go program can catch a signal. Go
// initialises next the first package by import path whose imports are all
// initialised, so main imports it, it needs nothing os/signal does not, and
// every init between the two is one Go's order puts first.
func TestQuitCatchIsArmedAsSoonAsSignalsCan(t *testing.T) {
	const catch = module + "/internal/quitcatch"
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(f.Imports, func(imp *ast.ImportSpec) bool {
		p, _ := strconv.Unquote(imp.Path.Value)
		return p == catch
	}) {
		t.Error("main.go does not import internal/quitcatch: ctrl+\\ is Go's until a command's handler")
	}
	out, err := exec.Command("go", "list", "-deps", "os/signal").Output()
	if err != nil {
		t.Fatalf("go list -deps os/signal: %v", err)
	}
	ofSignal := strings.Fields(string(out))
	if out, err = exec.Command("go", "list", "-deps", "./internal/quitcatch").Output(); err != nil {
		t.Fatalf("go list -deps ./internal/quitcatch: %v", err)
	}
	for _, d := range strings.Fields(string(out)) {
		if d != catch && !slices.Contains(ofSignal, d) {
			t.Errorf("internal/quitcatch needs %s, which os/signal does not: its init may wait for that package's", d)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	trace, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the test binary again: %v\n%s", err, trace)
	}
	var between []string
	signals := false
	for line := range strings.Lines(string(trace)) {
		f := strings.Fields(line)
		switch {
		case len(f) < 2 || f[0] != "init":
		case f[1] == "os/signal":
			signals = true
		case f[1] == catch && !signals:
			t.Fatal("internal/quitcatch initialised before os/signal")
		case f[1] == catch:
			for _, pkg := range between {
				if pkg > catch {
					t.Errorf("%s initialised between os/signal and internal/quitcatch: ctrl+\\ was Go's meanwhile", pkg)
				}
			}
			return
		case signals:
			between = append(between, f[1])
		}
	}
	t.Fatalf("internal/quitcatch's init is not in the init trace after os/signal's:\n%s", trace)
}
