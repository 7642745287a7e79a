//go:build e2e

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite LICENSES/THIRD_PARTY.txt")

// thirdPartyFile ships in every release archive (LICENSES/*): the notices
// of every module a release binary links, which MIT asks "in all copies"
// and BSD "in the documentation".
const thirdPartyFile = "LICENSES/THIRD_PARTY.txt"

// licenceName is a file that holds a licence or a notice a licence asks
// to keep (Go's PATENTS grant, an Apache NOTICE).
var licenceName = regexp.MustCompile(`(?i)^(licen[cs]e|copying|unlicense|notice|patents)([.-].*)?$`)

// TestThirdPartyLicenses: LICENSES/THIRD_PARTY.txt is what the module graph
// says today, for every system and architecture .goreleaser.yaml builds:
// each module the binary links (go list -deps, CGO_ENABLED=0 as the
// release), with every licence file at its root and in the folders of the
// packages linked, read from the module cache, and Go's own. A module
// added, removed or upgraded makes it stale, and CI fails here;
// `go test -tags e2e -run TestThirdPartyLicenses -update .` rewrites it.
func TestThirdPartyLicenses(t *testing.T) {
	want := thirdPartyLicences(t, releaseTargets(t))
	if *update {
		if err := os.WriteFile(thirdPartyFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(thirdPartyFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is out of date with the module graph: run go test -tags e2e -run TestThirdPartyLicenses -update . and read the diff", thirdPartyFile)
	}
}

// releaseTargets are goos/goarch pairs of .goreleaser.yaml's build.
func releaseTargets(t *testing.T) [][2]string {
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	list := func(key string) []string {
		m := regexp.MustCompile(`(?m)^\s+` + key + `: \[([a-z0-9, ]+)\]`).FindSubmatch(b)
		if m == nil {
			t.Fatalf(".goreleaser.yaml has no %s: [...] line", key)
		}
		return strings.Split(strings.ReplaceAll(string(m[1]), " ", ""), ",")
	}
	var targets [][2]string
	for _, goos := range list("goos") {
		for _, goarch := range list("goarch") {
			targets = append(targets, [2]string{goos, goarch})
		}
	}
	return targets
}

// linked is one package a binary links, as go list -json says.
type linked struct {
	Dir      string
	Standard bool
	Module   *struct{ Path, Version, Dir string }
}

// thirdPartyLicences renders the file for the union of what targets link.
func thirdPartyLicences(t *testing.T, targets [][2]string) string {
	type mod struct {
		version, dir string
		dirs         map[string]bool // package folders linked
	}
	modules := map[string]*mod{}
	for _, tg := range targets {
		cmd := exec.Command("go", "list", "-deps", "-json=Dir,Standard,Module", ".")
		cmd.Env = append(os.Environ(), "GOOS="+tg[0], "GOARCH="+tg[1], "CGO_ENABLED=0", "GOFLAGS=-mod=mod")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list for %s/%s: %v\n%s", tg[0], tg[1], err, stderr.String())
		}
		dec := json.NewDecoder(bytes.NewReader(out))
		for {
			var p linked
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			if p.Standard || p.Module == nil || p.Module.Path == module {
				continue
			}
			m := modules[p.Module.Path]
			if m == nil {
				m = &mod{version: p.Module.Version, dir: p.Module.Dir, dirs: map[string]bool{}}
				modules[p.Module.Path] = m
			}
			m.dirs[p.Dir] = true
		}
	}
	var b strings.Builder
	b.WriteString("Third-party software in svcwallet\n=================================\n\n")
	b.WriteString("A release binary of svcwallet links the Go standard library and the modules below\n")
	b.WriteString("(for Linux, macOS and Windows, amd64 and arm64, without cgo). Each one's licence\n")
	b.WriteString("files follow it, as its source ships them. Generated from the module graph by\n")
	b.WriteString("TestThirdPartyLicenses; do not edit. The GNU licences of go-ethereum are also in\n")
	b.WriteString("LICENSES/ beside this file, and NOTICE says what they ask of a redistributor.\n")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"LICENSE", "PATENTS"} {
		text, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), name))
		if err != nil {
			t.Fatal(err)
		}
		section(&b, "The Go standard library and runtime (https://go.dev)", name, text)
	}
	names := make([]string, 0, len(modules))
	for n := range modules {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		m := modules[n]
		dirs := []string{m.dir}
		for d := range m.dirs {
			if d != m.dir {
				dirs = append(dirs, d)
			}
		}
		slices.Sort(dirs[1:])
		var seen [][]byte
		found := 0
		for _, d := range dirs {
			entries, err := os.ReadDir(d)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.IsDir() || !licenceName.MatchString(e.Name()) {
					continue
				}
				text, err := os.ReadFile(filepath.Join(d, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if slices.ContainsFunc(seen, func(s []byte) bool { return bytes.Equal(s, text) }) {
					continue
				}
				seen = append(seen, text)
				rel, _ := filepath.Rel(m.dir, filepath.Join(d, e.Name()))
				section(&b, n+" "+m.version, filepath.ToSlash(rel), text)
				found++
			}
		}
		if found == 0 {
			t.Errorf("%s %s has no licence file in %s: a module without one cannot be shipped; check its source", n, m.version, m.dir)
		}
	}
	return b.String()
}

// section is one licence file: who, which file, its text.
func section(b *strings.Builder, who, file string, text []byte) {
	fmt.Fprintf(b, "\n\n%s\n%s (%s)\n%s\n\n", strings.Repeat("=", 79), who, file, strings.Repeat("-", 79))
	b.WriteString(strings.TrimRight(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n") + "\n")
}
