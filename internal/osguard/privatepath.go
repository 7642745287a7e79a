package osguard

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// The files svcwallet trusts (the config, which decides where signatures
// go; the keystore; the journal, which decides what is resent; the bridge
// pins and other state) are treated as ssh treats its own (OpenSSH's
// safe_path): a file, and every directory above it up to the home directory
// (or / for a file outside it), must belong to the user or root and be
// writable by no one else, or another user could change the file or swap it.
// The one exception is a directory above with the sticky bit, like /tmp:
// there others cannot rename or remove what is not theirs. These checks
// live in this leaf package so that signer (the keystore), service
// (config, journal, state files) and cli (debug log, doctor) all reach it.

// UnsafePathError is a file or directory refused by these rules: What says
// what is wrong with which path, Fix the command that makes it safe.
type UnsafePathError struct {
	What string
	Fix  string
}

func (e *UnsafePathError) Error() string { return e.What + ": " + e.Fix }

// CheckPrivatePath refuses path when it, or a directory above it, breaks the
// rules above. Links are followed (a config may be a dotfile manager's
// link), and the directories of both the named and the real path are
// checked. A path that does not exist yet is not refused for itself. Windows
// reports synthetic permission bits, so nothing is checked there.
func CheckPrivatePath(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("cannot tell where %s is: %w", safetext.Shown(path), err)
	}
	homes := homeDirs()
	if err := checkChain(abs, homes); err != nil {
		return err
	}
	if real, err := realPath(abs); err == nil && real != abs {
		return checkChain(real, homes)
	}
	return nil
}

// CheckPrivateFile is CheckPrivatePath for a file svcwallet writes itself,
// which also may not be a symbolic link nor anything but a regular file: a
// planted link would send the writes to a file of the attacker's choosing.
func CheckPrivateFile(path string) error {
	if fi, err := os.Lstat(path); err == nil {
		if err := checkKind(path, fi); err != nil {
			return err
		}
	}
	return CheckPrivatePath(path)
}

// OpenPrivate opens a file svcwallet writes itself (flag as for
// os.OpenFile; created 0600) after CheckPrivateFile, without following a link at its end,
// and checks the opened file's owner and mode again so that nothing swapped
// in between the check and the open is used.
func OpenPrivate(path string, flag int) (*os.File, error) {
	if err := CheckPrivateFile(path); err != nil {
		return nil, err
	}
	return openNoFollow(path, flag, 0o600)
}

// openNoFollow is OpenPrivate's open, which alone also holds when a link,
// another user's file or a named pipe (never waited on) is put at path
// after the check.
func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := openNonBlocking(path, flag|oNoFollow, perm)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, linkError(path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		if err = checkKind(path, fi); err == nil && runtime.GOOS != "windows" {
			err = checkEntry(path, "", fi)
		}
	}
	// Where modes mean nothing (Windows), a file made here gets a list
	// that lets in its owner alone.
	if err == nil && flag&os.O_CREATE != 0 {
		err = MakePrivate(path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func checkKind(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return linkError(path)
	case !fi.Mode().IsRegular():
		return &UnsafePathError{What: safetext.Shown(path) + " is not a regular file", Fix: "move it away; svcwallet makes a new file there"}
	}
	return nil
}

func linkError(path string) error {
	return &UnsafePathError{
		What: safetext.Shown(path) + " is a symbolic link, and svcwallet follows none for its own files (a link could send them elsewhere)",
		Fix:  "remove the link, or move the real file into its place",
	}
}

// homeDirs is the home directory, as named and with its links resolved,
// where the walk up from a file stops.
func homeDirs() []string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return nil
	}
	homes := []string{filepath.Clean(home)}
	if real, err := filepath.EvalSymlinks(home); err == nil && real != homes[0] {
		homes = append(homes, real)
	}
	return homes
}

// realPath is abs with every link resolved; for a file not made yet, its
// directory's.
func realPath(abs string) (string, error) {
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, filepath.Base(abs)), nil
}

// checkChain checks abs and each directory above it, up to a home
// directory (included, as ssh does) or the root. Missing entries are skipped:
// they are made later, the directories 0700.
func checkChain(abs string, homes []string) error {
	if fi, err := os.Stat(abs); err == nil {
		if err := checkEntry(abs, "", fi); err != nil {
			return err
		}
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil {
			if err := checkEntry(dir, abs, fi); err != nil {
				return err
			}
		}
		if slices.Contains(homes, dir) || dir == filepath.Dir(dir) {
			return nil
		}
	}
}

// ownedByUs: an entry of ours or root's (who can replace anything anyway).
// Root's are asked first: most above a file are, and Getuid is a system
// call each time.
func ownedByUs(uid int, me func() int) bool { return uid == 0 || uid == me() }

// checkEntry applies the rules to path: the file itself when below is "",
// else a directory above the file below. Both are named Shown: a file
// planted in a folder (a keystore's) has a name from outside, so a fix
// names no command for a name that is not clean.
func checkEntry(path, below string, fi fs.FileInfo) error {
	what, change := safetext.Shown(path), "change it"
	if below != "" {
		what, change = "directory "+safetext.Shown(path)+" (above "+safetext.Shown(below)+")", "replace what is in it"
	}
	if uid, known := fileOwner(fi); known && !ownedByUs(uid, os.Getuid) {
		fix := FixOf(path, fmt.Sprintf("if it should be yours, sudo chown \"$USER\" %s; else keep svcwallet's files elsewhere", safetext.ShellWord(path)))
		return &UnsafePathError{What: fmt.Sprintf("%s belongs to another user (uid %d), who could %s", what, uid, change), Fix: fix}
	}
	if fi.Mode().Perm()&0o022 == 0 || below != "" && fi.Mode()&fs.ModeSticky != 0 {
		return nil
	}
	fix := FixOf(path, "make it yours alone: "+safetext.ShellLine("chmod", "go-w", path))
	return &UnsafePathError{What: fmt.Sprintf("%s is writable by group or others (mode %04o), who could %s", what, fi.Mode().Perm(), change), Fix: fix}
}

// RenameFirst is the fix for a file whose name is not clean (Shown): a
// command naming it would carry what the name holds to the terminal. The
// faces add the doctor command to run next, with their --env and --config
// (runnext): this package knows neither.
const RenameFirst = "rename it with letters, digits and dashes only"

// FixOf is fix, a command naming path, or RenameFirst when path is not
// clean.
func FixOf(path, fix string) string {
	if safetext.Shown(path) != path {
		return RenameFirst
	}
	return fix
}
