package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// The docs' readers follow links: a link to a file that moved or a heading
// renamed sends them nowhere, and a page no link reaches is not read.
var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	mdFence   = regexp.MustCompile("(?ms)^```.*?^```")
)

// docPages are the Markdown pages a reader opens, README first.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md"}
	more, err := filepath.Glob("docs/*.md")
	if err != nil || len(more) == 0 {
		t.Fatalf("docs/*.md: %v", err)
	}
	return append(pages, more...)
}

// anchors are a page's headings as GitHub makes their ids: lower case,
// punctuation dropped, spaces as hyphens, a repeat numbered.
func anchors(text string) map[string]bool {
	ids := map[string]bool{}
	for _, m := range mdHeading.FindAllStringSubmatch(mdFence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		id := b.String()
		for n := 1; ids[id]; n++ {
			id = b.String() + "-" + strconv.Itoa(n)
		}
		ids[id] = true
	}
	return ids
}

// links are a page's relative links, each as the path it names from the
// repository's root and the anchor after it.
func links(page, text string) [][2]string {
	var out [][2]string
	for _, m := range mdLink.FindAllStringSubmatch(mdFence.ReplaceAllString(text, ""), -1) {
		target := m[1]
		if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(target, "#")
		if file == "" {
			file = page
		} else {
			file = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
		}
		out = append(out, [2]string{file, anchor})
	}
	return out
}

func TestDocsLinksResolve(t *testing.T) {
	texts := map[string]string{}
	for _, p := range docPages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		texts[p] = string(b)
	}
	for _, page := range docPages(t) {
		for _, l := range links(page, texts[page]) {
			file, anchor := l[0], l[1]
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, file)
				continue
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			text, ok := texts[file]
			if !ok {
				b, _ := os.ReadFile(file)
				text = string(b)
			}
			if !anchors(text)[anchor] {
				t.Errorf("%s links to %s#%s, a heading %s does not have", page, file, anchor, file)
			}
		}
	}
}

// TestDocsReachableFromTheReadme: every page of docs/ is linked from the
// README, or from a page the README links.
func TestDocsReachableFromTheReadme(t *testing.T) {
	reached := map[string]bool{"README.md": true}
	frontier := []string{"README.md"}
	for step := 0; step < 2; step++ {
		var next []string
		for _, page := range frontier {
			b, err := os.ReadFile(page)
			if err != nil {
				continue // TestDocsLinksResolve names it
			}
			for _, l := range links(page, string(b)) {
				if strings.HasSuffix(l[0], ".md") && !reached[l[0]] {
					reached[l[0]] = true
					next = append(next, l[0])
				}
			}
		}
		frontier = next
	}
	for _, page := range docPages(t) {
		if !reached[page] {
			t.Errorf("%s is not linked from README.md, nor from a page it links", page)
		}
	}
}
