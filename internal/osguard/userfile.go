package osguard

import (
	"fmt"
	"io/fs"
	"os"
	"runtime"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// OpenUserFile opens for reading a file the user named (the config, a
// keystore file, a prepared Transfer to submit): without blocking, and only
// when it is a regular file. A named pipe would block the read for ever,
// and a device is no file to read; either is refused with what it is.
func OpenUserFile(path string) (*os.File, error) {
	f, err := openNonBlocking(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = &UnsafePathError{What: safetext.Shown(path) + " is " + kindOf(fi.Mode()) + ", not a regular file", Fix: "give the path of a regular file"}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadUserFile reads a file the user named, through OpenUserFile, refusing
// one of more than max bytes before it is read whole (ReadAtMost).
func ReadUserFile(path string, max int64) ([]byte, error) {
	f, err := OpenUserFile(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAtMost(f, path, max)
}

// OpenSecretFile is OpenUserFile for a file holding a secret (a password
// file), held to ssh's rules for a private key: it is the user's and
// readable or writable by no one else, and the directories above it are
// as CheckPrivatePath wants them. Another user who could read it has the
// passphrase; one who could change it chooses what is typed for us.
func OpenSecretFile(path string) (*os.File, error) {
	f, err := OpenUserFile(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err == nil {
		err = checkSecret(path, fi)
	}
	if err == nil {
		err = CheckPrivatePath(path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// CheckSecretFile refuses a file svcwallet wrote holding a secret (a
// session kept in the session file) that is another user's or open to
// group or others, as OpenSecretFile refuses a password file: a chmod or
// a backup put back may have let another user read the secret.
func CheckSecretFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	return checkSecret(path, fi)
}

// checkSecret refuses a secret's file (as opened) that is another user's
// or open to group or others, naming it Shown, with no command for a name
// that is not clean (RenameFirst). Windows reports synthetic permission bits,
// so nothing is checked there, as in CheckPrivatePath.
func checkSecret(path string, fi fs.FileInfo) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	if uid, known := fileOwner(fi); known && uid != os.Getuid() {
		fix := FixOf(path, fmt.Sprintf("if it should be yours, sudo chown \"$USER\" %s; else make a file of your own", safetext.ShellWord(path)))
		return &UnsafePathError{What: fmt.Sprintf("%s belongs to another user (uid %d), who can read and change the secret in it", safetext.Shown(path), uid), Fix: fix}
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		fix := FixOf(path, "make it yours alone: "+safetext.ShellLine("chmod", "600", path))
		return &UnsafePathError{What: fmt.Sprintf("%s is open to group or others (mode %04o), who could read or change the secret in it", safetext.Shown(path), perm), Fix: fix}
	}
	return nil
}

// kindOf names what a file that is not a regular one is.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
