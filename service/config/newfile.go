package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// NoConfigError is a config named explicitly that does not exist.
// Commands that read it are refused; env add makes it (CheckNewConfig).
type NoConfigError struct{ Path string }

func (e *NoConfigError) Error() string {
	// Shown: the path as typed may hold an escape or a bidi override.
	return fmt.Sprintf("config %s does not exist: create it (docs/config.md), or name another file", safetext.Shown(e.Path))
}

// CheckNewConfig refuses to make a config at path, named explicitly and
// missing, where the file would not be the one named: a link at the name
// (a dangling one; it is never followed), or a folder that is missing or
// no folder (a mistyped folder would be made and the config lost in it).
// A folder another user could write is refused by AddEnvironment's reading
// of the config (osguard.CheckPrivatePath).
func CheckNewConfig(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("a link is at %s: not followed; remove it or name another file", safetext.Shown(path))
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case err != nil && os.IsNotExist(err):
		return fmt.Errorf("there is no folder %s for config %s: make it first, or name a file in a folder that exists", safetext.Shown(dir), safetext.Shown(filepath.Base(path)))
	case err != nil:
		return fmt.Errorf("config %s: %w", safetext.Shown(path), err)
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder: name a config file in a folder that exists", safetext.Shown(dir))
	}
	return nil
}

// CreateConfig makes the empty config CheckNewConfig allowed at path,
// owner-only: never through a link nor over a file put there since the
// check (O_EXCL, O_NOFOLLOW), so the edit that follows writes this file.
func CreateConfig(path string) error {
	err := osguard.CreateStateFile(path, nil)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("something was put at %s after it was checked, and nothing was written: see what it is, then name another file", safetext.Shown(path))
	}
	if err != nil {
		return fmt.Errorf("config %s: %w", safetext.Shown(path), err)
	}
	return nil
}
