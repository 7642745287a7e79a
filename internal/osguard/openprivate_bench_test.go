package osguard

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkOpenPrivate: what opening a file svcwallet writes costs with its
// checks (the file, then each folder of its path, before and after the
// open), against a bare os.Open: paid once an open, so once a journal
// query, whatever the journal's size.
func BenchmarkOpenPrivate(b *testing.B) {
	path := filepath.Join(b.TempDir(), "journal.jsonl")
	if err := os.WriteFile(path, []byte("{}\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	for name, open := range map[string]func() (*os.File, error){
		"OpenPrivate": func() (*os.File, error) { return OpenPrivate(path, os.O_RDONLY) },
		"bare":        func() (*os.File, error) { return os.Open(path) },
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				f, err := open()
				if err != nil {
					b.Fatal(err)
				}
				f.Close()
			}
		})
	}
}
