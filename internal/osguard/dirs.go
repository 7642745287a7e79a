package osguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// goos is the system this process runs on; DirsFor takes any, for tests.
const goos = runtime.GOOS

// AppName is the folder svcwallet keeps its files in, under each base.
const AppName = "svcwallet"

// Dirs are the folders svcwallet keeps its files in (docs/config.md, "Where
// files live"): Config holds config.toml, State the journal and the other
// state files (the session store, bridge pins, the board's file, the debug
// log), Keystore the encrypted keys.
type Dirs struct {
	Config, State, Keystore string
}

// DirsFor is the one rule for where svcwallet's files live on goos, given
// the user's environment (getenv) and home directory. An absolute
// $XDG_CONFIG_HOME or $XDG_STATE_HOME is honoured on every system;
// otherwise each system's own place: ~/.config and ~/.local/state on
// Linux and the BSDs, ~/Library/Application Support on macOS, %APPDATA%
// (which roams to other machines) and %LOCALAPPDATA% (which stays) on
// Windows. The keystore lives with the config, except on Windows, where
// keys must not roam: there it lives with the state.
func DirsFor(goos string, getenv func(string) string, home string) (Dirs, error) {
	config, err := baseDir(goos, getenv, home, "XDG_CONFIG_HOME", "APPDATA", ".config")
	if err != nil {
		return Dirs{}, err
	}
	state, err := baseDir(goos, getenv, home, "XDG_STATE_HOME", "LOCALAPPDATA", ".local/state")
	if err != nil {
		return Dirs{}, err
	}
	d := Dirs{Config: join(goos, config, AppName), State: join(goos, state, AppName)}
	d.Keystore = join(goos, d.Config, "keystore")
	if goos == "windows" {
		d.Keystore = join(goos, d.State, "keystore")
	}
	return d, nil
}

// baseDir is one base folder: $xdg when absolute, else the system's own
// (winVar on Windows, Application Support on macOS, home/unixRel elsewhere).
func baseDir(goos string, getenv func(string) string, home, xdg, winVar, unixRel string) (string, error) {
	if v := getenv(xdg); isAbs(goos, v) {
		return v, nil
	}
	switch goos {
	case "windows":
		if v := getenv(winVar); isAbs(goos, v) {
			return v, nil
		}
		return "", fmt.Errorf("%%%s%% is not set: set it, or set %s", winVar, xdg)
	case "darwin", "ios":
		if home == "" {
			return "", fmt.Errorf("no home directory: set $HOME, or set %s", xdg)
		}
		return join(goos, home, "Library", "Application Support"), nil
	}
	if home == "" {
		return "", fmt.Errorf("no home directory: set $HOME, or set %s", xdg)
	}
	return join(goos, home, unixRel), nil
}

// earlierDirsFor is where versions before 0.2 kept the files on goos: the
// config and keystore in os.UserConfigDir's folder (which ignores XDG_*
// outside unix), the state in $XDG_STATE_HOME or ~/.local/state everywhere.
func earlierDirsFor(goos string, getenv func(string) string, home string) Dirs {
	var config string
	switch goos {
	case "windows":
		config = getenv("APPDATA")
	case "darwin", "ios":
		if home != "" {
			config = join(goos, home, "Library", "Application Support")
		}
	default:
		if config = getenv("XDG_CONFIG_HOME"); config == "" && home != "" {
			config = join(goos, home, ".config")
		}
	}
	state := getenv("XDG_STATE_HOME")
	if state == "" && home != "" {
		state = join(goos, home, ".local", "state")
	}
	var d Dirs
	if config != "" {
		d.Config = join(goos, config, AppName)
		d.Keystore = join(goos, d.Config, "keystore")
	}
	if state != "" {
		d.State = join(goos, state, AppName)
	}
	return d
}

// UserDirs is DirsFor this system, this process's environment and home.
func UserDirs() (Dirs, error) {
	home, _ := os.UserHomeDir()
	return DirsFor(goos, os.Getenv, home)
}

// Moved is one file or folder of an earlier version moved to its place now;
// Err is set when it could not be, and it stays where it was.
type Moved struct {
	From, To string
	Err      error
}

// MoveEarlierFiles moves what an earlier version wrote where this one does
// not look (macOS and Windows kept state in ~/.local/state, Windows its
// keystore in the roaming profile) to its place now, once: an entry that
// already exists in the new place is left alone, and a folder emptied is
// removed, so the next run finds nothing to move. Nothing is read.
func MoveEarlierFiles() []Moved {
	home, _ := os.UserHomeDir()
	now, err := DirsFor(goos, os.Getenv, home)
	if err != nil {
		return nil
	}
	rooted, here := fromHere(goos, earlierDirsFor(goos, os.Getenv, home))
	return append(moveEarlier(rooted, now), moveJournal(here.State, now.State)...)
}

// fromHere splits d into the places named from the root and those named
// from the folder this run started in (a relative $XDG_CONFIG_HOME or
// $XDG_STATE_HOME, which earlier versions honoured), these named whole: a
// message naming a file there is read elsewhere.
func fromHere(goos string, d Dirs) (rooted, here Dirs) {
	for _, p := range []struct{ d, rooted, here *string }{
		{&d.Config, &rooted.Config, &here.Config}, {&d.State, &rooted.State, &here.State}, {&d.Keystore, &rooted.Keystore, &here.Keystore},
	} {
		if abs, err := filepath.Abs(*p.d); *p.d != "" && !isAbs(goos, *p.d) && err == nil {
			*p.here = abs
		} else {
			*p.rooted = *p.d
		}
	}
	return rooted, here
}

// moveJournal moves only the journal out of from, a place named from the
// folder this run started in: any folder of the user's named svcwallet
// (their own project), whose other files are not svcwallet's to move.
func moveJournal(from, to string) []Moved {
	if from == "" || to == "" || sameFolder(from, to) {
		return nil
	}
	j, moved := filepath.Join(from, JournalName), filepath.Join(to, JournalName)
	if fi, err := os.Lstat(j); err != nil || fi.IsDir() {
		return nil
	}
	return fenced(j, moved, moveEntry(j, moved))
}

func moveEarlier(was, now Dirs) []Moved {
	var moved []Moved
	// The keystore first: on Windows it sits inside the earlier config
	// folder and moves into the new state folder.
	moved = append(moved, moveEntries(was.Keystore, now.Keystore, "")...)
	if was.Config != "" && !sameFolder(was.Config, now.Config) {
		moved = append(moved, moveEntry(filepath.Join(was.Config, "config.toml"), filepath.Join(now.Config, "config.toml"))...)
	}
	moved = append(moved, moveEntries(was.State, now.State, JournalName)...)
	return moved
}

// JournalName is the withdrawal journal's name in the state folder.
const JournalName = "journal.jsonl"

// ErrLeftBeside is a withdrawal journal an earlier version wrote at its
// earlier place, left there because one is at the new place already.
var ErrLeftBeside = errors.New("a journal is at the new place already, so this one was left where it is: the withdrawals in it are not seen by the check that a withdrawal is sent once")

// LeftBeside is the journals of moved an earlier version wrote and left
// where they are (ErrLeftBeside): every face says them before a withdrawal.
func LeftBeside(moved []Moved) []Moved {
	var beside []Moved
	for _, m := range moved {
		if errors.Is(m.Err, ErrLeftBeside) {
			beside = append(beside, m)
		}
	}
	return beside
}

// moveEntries moves every entry of the folder from into the folder to (made
// private), each one not already there; from is removed once empty. The
// entry named fence, once moved, has a folder put in its place (fenced).
func moveEntries(from, to, fence string) []Moved {
	if from == "" || to == "" || sameFolder(from, to) {
		return nil
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return nil
	}
	var moved []Moved
	fenceFound := false
	for _, e := range entries {
		if e.Name() == fence && e.IsDir() {
			continue // the fence itself: moved, it would stand as the journal
		}
		m := moveEntry(filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
		if e.Name() == fence {
			fenceFound = true
			m = fenced(filepath.Join(from, e.Name()), filepath.Join(to, e.Name()), m)
		}
		moved = append(moved, m...)
	}
	if fence != "" && !fenceFound {
		refence(filepath.Join(from, fence), filepath.Join(to, fence))
	}
	_ = os.Remove(from)
	return moved
}

// refence puts the fence back at from, the earlier place of the journal now
// at to, where a journal left beside (ErrLeftBeside) was moved away as
// advised: the earlier version that wrote it may still be running, and
// would make it there anew, unseen.
func refence(from, to string) {
	if fi, err := os.Lstat(to); err == nil && fi.Mode().IsRegular() {
		_ = os.Mkdir(from, 0o700)
	}
}

// fenced puts a folder in the place of the journal moved from (m, what
// moveEntry did): an earlier version still running (a console left open
// over the upgrade) made its journal there anew, journaled withdrawals
// this version never reads and sent them; a folder it cannot append to
// stops its sends. A journal file left there, beside the one moved before
// or because its move failed, is said (ErrLeftBeside), every run.
func fenced(from, to string, m []Moved) []Moved {
	if len(m) == 1 && m[0].Err == nil {
		_ = os.Mkdir(from, 0o700) // made meanwhile, it is said beside next run
		return m
	}
	var linked *LinkedError
	if len(m) == 1 && errors.As(m[0].Err, &linked) {
		return m // one file at both names: seen, fenced once the name goes
	}
	if fi, err := os.Lstat(from); err == nil && fi.Mode().IsRegular() {
		switch {
		case len(m) == 0:
			return []Moved{{From: from, To: to, Err: ErrLeftBeside}}
		case m[0].Err != nil:
			return []Moved{{From: from, To: to, Err: &NotMovedError{Cause: m[0].Err}}}
		}
	}
	return m
}

// NotMovedError is a journal whose move failed (on Windows an earlier
// version still open holds it): left at its earlier place, it is as unseen
// as one left beside (errors.Is ErrLeftBeside), and every face says it so,
// with Why; the next run tries the move again.
type NotMovedError struct{ Cause error }

func (e *NotMovedError) Error() string {
	return "it could not be moved (" + e.Why() + "), so it was left where it is: the withdrawals in it are not seen by the check that a withdrawal is sent once"
}
func (e *NotMovedError) Is(target error) bool { return target == ErrLeftBeside }
func (e *NotMovedError) Unwrap() error        { return e.Cause }

// Why is what stopped the move (reason).
func (e *NotMovedError) Why() string { return reason(e.Cause) }

// Why is what stopped m's move (reason), "" when it moved.
func (m Moved) Why() string {
	if m.Err == nil {
		return ""
	}
	return reason(m.Err)
}

// reason is err in the system's words ("permission denied"), after the
// step that failed: the paths, which the words around it name escaped
// (safetext.Shown), left out, and anything else escaped.
func reason(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &le):
		return le.Op + ": " + safetext.Shown(le.Err.Error())
	case errors.As(err, &pe):
		return pe.Op + ": " + safetext.Shown(pe.Err.Error())
	}
	return safetext.Shown(err.Error())
}

// NotMoved is m's NotMovedError when m is a journal whose move failed,
// else nil (one left beside a journal already at the new place, or moved).
func (m Moved) NotMoved() *NotMovedError {
	var e *NotMovedError
	if errors.As(m.Err, &e) {
		return e
	}
	return nil
}

// sameFolder reports whether a and b name one folder: the same path, or
// two names of it (a link on the way, a relative $XDG_STATE_HOME from the
// folder it names, another case where the system ignores it), where
// nothing is moved, removed nor said.
func sameFolder(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	return err == nil && os.SameFile(ai, bi)
}

// moveEntry renames from to to when from exists and to does not; a to
// that cannot be looked at is a failure, said, never taken as there. A
// move cut short (rename's file at both places) is finished.
func moveEntry(from, to string) []Moved {
	fi, err := os.Lstat(from)
	if err != nil {
		return nil
	}
	if ti, err := os.Lstat(to); err == nil {
		if os.SameFile(fi, ti) {
			return []Moved{{From: from, To: to, Err: unlinkEarlier(from)}}
		}
		return nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return []Moved{{From: from, To: to, Err: err}}
	}
	err = MkdirPrivate(filepath.Dir(to))
	if err == nil {
		err = rename(from, to)
	}
	return []Moved{{From: from, To: to, Err: err}}
}

// rename moves from to to, never over what was made at to since it was
// looked at (another svcwallet's first journal line, in that instant): a
// file is linked there, which fails when to exists, then unlinked here.
// Where links are not had (FAT, some network mounts), and for a folder, it
// is renamed by a rename that fails when to exists (renameNoReplace).
func rename(from, to string) error {
	if fi, err := os.Lstat(from); err == nil && fi.Mode().IsRegular() {
		switch err := link(from, to); {
		case err == nil:
			return unlinkEarlier(from)
		case errors.Is(err, fs.ErrExist):
			return err
		}
	}
	return renameNoReplace(from, to)
}

// link is os.Link, which a test makes fail as a filesystem without links.
var link = os.Link

// unlink is os.Remove, which a test makes fail as Windows does on a file
// an earlier version still holds open.
var unlink = os.Remove

// unlinkEarlier removes from, an earlier name of the file now linked at its
// new place too: a failure is a *LinkedError, the move done but for it.
func unlinkEarlier(from string) error {
	if err := unlink(from); err != nil {
		return &LinkedError{Cause: err}
	}
	return nil
}

// LinkedError is a file at its new place that is still at its earlier one
// too, as one file (linked), its earlier name not removed: what is written
// at either name is in the file in use, nothing unseen; the next run
// removes that name.
type LinkedError struct{ Cause error }

func (e *LinkedError) Error() string {
	return "it is at its new place too, as one file, but its earlier name could not be removed (" + reason(e.Cause) + "): the next run removes it"
}
func (e *LinkedError) Unwrap() error { return e.Cause }

// MkdirPrivate makes dir and the folders above it that are missing (0700),
// and makes dir itself private to the user where modes do not say so
// (an owner-only ACL on Windows, MakePrivate).
func MkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return MakePrivate(dir)
}

// join joins path elements as goos writes paths, whichever system runs.
func join(goos string, elem ...string) string {
	if goos != "windows" {
		return path.Join(elem...)
	}
	for i, e := range elem {
		elem[i] = strings.TrimRight(e, `\/`)
	}
	return strings.Join(elem, `\`)
}

// isAbs reports whether p is an absolute path on goos: /… on unix; a drive
// (C:\…) or a share (\\server\…) on Windows.
func isAbs(goos, p string) bool {
	if goos != "windows" {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}
