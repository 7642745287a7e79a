package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// editLock is the lock an edit of the config at real (the file a link
// names) holds: in the state folder, named from the config's real path, so
// nothing is left beside the config for good, nor in a dotfiles
// repository its folder links into. It is never removed: a process
// waiting on a removed lock's file would hold it beside one that made the
// file again, and two edits would both run. Without a state folder it is
// beside the config, as before.
func editLock(real string) (string, error) {
	dir, base := filepath.Dir(real), filepath.Base(real)
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		dir = r
	}
	abs, err := filepath.Abs(filepath.Join(dir, base))
	if err != nil {
		return "", err
	}
	d, err := osguard.UserDirs()
	if err != nil || d.State == "" {
		return abs + ".lock", nil
	}
	if err := osguard.MkdirPrivate(d.State); err != nil {
		return "", fmt.Errorf("state folder: %w", err)
	}
	// One lock whatever the case the config is named in, on every system:
	// macOS's disks, like Windows', take either case for one file. Two
	// configs sharing a lock only wait on each other's edits.
	sum := sha256.Sum256([]byte(strings.ToLower(abs)))
	return filepath.Join(d.State, "config-"+hex.EncodeToString(sum[:8])+".lock"), nil
}
