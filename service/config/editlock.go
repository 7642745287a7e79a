package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// lockEdit holds the lock of an edit of the config at real (the file a
// link names): its folder itself, so every process editing it waits on one
// lock whatever its $XDG_STATE_HOME (a lock named from the state folder was
// two locks for two of them), and nothing is made beside the config nor in
// a dotfiles repository its folder links into. Where the folder cannot be
// locked it is the lock file editLock names, as before: Windows locks no
// folder, NFS takes flock as a byte-range lock, exclusive only on a file
// open for writing (never a folder: EBADF), and a folder may be writable
// but not readable. Each process editing one config meets the same folder
// on the same filesystem, so they fall back alike.
func lockEdit(real string) (unlock func(), err error) {
	w := osguard.Wait{Doing: "editing the config " + safetext.Shown(real)}
	unlock, err = lockFolder(filepath.Dir(real), w)
	if err == nil || errors.As(err, new(*osguard.LockHeldError)) {
		return unlock, err
	}
	lock, err := editLock(real)
	if err != nil {
		return nil, err
	}
	return osguard.LockFile(lock, w)
}

// lockFolder is osguard.LockFolder; a test refuses it as NFS does.
var lockFolder = osguard.LockFolder

// editLock is the lock file of an edit of the config at real where no
// folder is locked: in the state folder, named from the config's real
// path, so nothing is left beside the config for good. It is never
// removed: a process waiting on a removed lock's file would hold it beside
// one that made the file again, and two edits would both run. Without a
// state folder it is beside the config.
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
