package osguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDirsPerSystem is the table of docs/config.md, "Where files live": each
// system's own folders, and XDG_* honoured on every system when absolute.
func TestDirsPerSystem(t *testing.T) {
	win := map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\ann\AppData\Local`}
	xdg := map[string]string{"XDG_CONFIG_HOME": "/srv/cfg", "XDG_STATE_HOME": "/srv/state"}
	for _, c := range []struct {
		name, goos, home string
		env              map[string]string
		want             Dirs
	}{
		{"linux", "linux", "/home/ann", nil, Dirs{
			Config: "/home/ann/.config/svcwallet", State: "/home/ann/.local/state/svcwallet", Keystore: "/home/ann/.config/svcwallet/keystore"}},
		{"linux, XDG", "linux", "/home/ann", xdg, Dirs{
			Config: "/srv/cfg/svcwallet", State: "/srv/state/svcwallet", Keystore: "/srv/cfg/svcwallet/keystore"}},
		{"linux, relative XDG ignored", "linux", "/home/ann", map[string]string{"XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": "st"}, Dirs{
			Config: "/home/ann/.config/svcwallet", State: "/home/ann/.local/state/svcwallet", Keystore: "/home/ann/.config/svcwallet/keystore"}},
		{"freebsd", "freebsd", "/home/ann", nil, Dirs{
			Config: "/home/ann/.config/svcwallet", State: "/home/ann/.local/state/svcwallet", Keystore: "/home/ann/.config/svcwallet/keystore"}},
		{"darwin", "darwin", "/Users/ann", nil, Dirs{
			Config:   "/Users/ann/Library/Application Support/svcwallet",
			State:    "/Users/ann/Library/Application Support/svcwallet",
			Keystore: "/Users/ann/Library/Application Support/svcwallet/keystore"}},
		{"darwin, XDG", "darwin", "/Users/ann", xdg, Dirs{
			Config: "/srv/cfg/svcwallet", State: "/srv/state/svcwallet", Keystore: "/srv/cfg/svcwallet/keystore"}},
		{"windows", "windows", `C:\Users\ann`, win, Dirs{
			Config:   `C:\Users\ann\AppData\Roaming\svcwallet`,
			State:    `C:\Users\ann\AppData\Local\svcwallet`,
			Keystore: `C:\Users\ann\AppData\Local\svcwallet\keystore`}},
		{"windows, XDG", "windows", `C:\Users\ann`, map[string]string{"APPDATA": win["APPDATA"], "XDG_CONFIG_HOME": `D:\cfg`, "XDG_STATE_HOME": `D:\state\`}, Dirs{
			Config: `D:\cfg\svcwallet`, State: `D:\state\svcwallet`, Keystore: `D:\state\svcwallet\keystore`}},
		{"windows, unix-style XDG not absolute there", "windows", `C:\Users\ann`, map[string]string{"APPDATA": win["APPDATA"], "LOCALAPPDATA": win["LOCALAPPDATA"], "XDG_CONFIG_HOME": "/cfg"}, Dirs{
			Config: `C:\Users\ann\AppData\Roaming\svcwallet`, State: `C:\Users\ann\AppData\Local\svcwallet`, Keystore: `C:\Users\ann\AppData\Local\svcwallet\keystore`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := DirsFor(c.goos, func(k string) string { return c.env[k] }, c.home)
			if err != nil || got != c.want {
				t.Errorf("DirsFor = %+v, %v\nwant       %+v", got, err, c.want)
			}
		})
	}
	if _, err := DirsFor("windows", func(string) string { return "" }, `C:\Users\ann`); err == nil || !strings.Contains(err.Error(), "APPDATA") {
		t.Errorf("windows without %%APPDATA%%: %v", err)
	}
	if _, err := DirsFor("linux", func(string) string { return "" }, ""); err == nil || !strings.Contains(err.Error(), "HOME") {
		t.Errorf("linux without a home: %v", err)
	}
}

// TestEarlierDirs: where versions before this one wrote, per system: the
// state in ~/.local/state everywhere, the keystore in the roaming profile.
func TestEarlierDirs(t *testing.T) {
	env := map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`}
	got := earlierDirsFor("windows", func(k string) string { return env[k] }, `C:\Users\ann`)
	want := Dirs{Config: `C:\Users\ann\AppData\Roaming\svcwallet`, State: `C:\Users\ann\.local\state\svcwallet`, Keystore: `C:\Users\ann\AppData\Roaming\svcwallet\keystore`}
	if got != want {
		t.Errorf("windows: %+v, want %+v", got, want)
	}
	if got := earlierDirsFor("darwin", func(string) string { return "" }, "/Users/ann"); got.State != "/Users/ann/.local/state/svcwallet" {
		t.Errorf("darwin state: %q", got.State)
	}
	linux := func(k string) string { return map[string]string{"XDG_STATE_HOME": "/s", "XDG_CONFIG_HOME": "/c"}[k] }
	now, _ := DirsFor("linux", linux, "/home/ann")
	if was := earlierDirsFor("linux", linux, "/home/ann"); was != now {
		t.Errorf("linux moved: earlier %+v, now %+v", was, now)
	}
}

// TestMoveEarlierFiles: an earlier version's files move once, what is
// already in the new place stays, and the emptied folders go.
func TestMoveEarlierFiles(t *testing.T) {
	root := t.TempDir()
	was := Dirs{Config: filepath.Join(root, "roaming"), State: filepath.Join(root, "old-state"), Keystore: filepath.Join(root, "roaming", "keystore")}
	now := Dirs{Config: filepath.Join(root, "roaming"), State: filepath.Join(root, "local"), Keystore: filepath.Join(root, "local", "keystore")}
	write := func(p, s string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(was.Keystore, "UTC--key"), "key")
	write(filepath.Join(was.State, "journal.jsonl"), "old journal")
	write(filepath.Join(was.State, "bridge-pins.json"), "old pins")
	write(filepath.Join(now.State, "bridge-pins.json"), "new pins")
	write(filepath.Join(was.Config, "config.toml"), "cfg")

	moved := moveEarlier(was, now)
	if len(moved) != 2 {
		t.Errorf("moved %+v, want the key and the journal", moved)
	}
	for _, m := range moved {
		if m.Err != nil {
			t.Errorf("%+v", m)
		}
	}
	for p, want := range map[string]string{
		filepath.Join(now.Keystore, "UTC--key"):          "key",
		filepath.Join(now.State, "journal.jsonl"):        "old journal",
		filepath.Join(now.State, "bridge-pins.json"):     "new pins",
		filepath.Join(was.State, "bridge-pins.json"):     "old pins",
		filepath.Join(now.Config, "config.toml"):         "cfg",
		filepath.Join(was.Keystore, "..", "config.toml"): "cfg",
	} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", p, b, err, want)
		}
	}
	if _, err := os.Stat(was.Keystore); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the emptied keystore folder stays: %v", err)
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("a second run moves %+v", again)
	}
}

// TestEarlierJournalFencedOnceMoved: once the withdrawal journal moved, an
// earlier version still running (a console left open over the upgrade)
// cannot write a journal at its old place: it opened it there again, made
// anew, journaled its withdrawals where this version never reads and sent
// them, so the repeat guard never saw them. A folder stands in its place,
// which an earlier version cannot append to, so it sends nothing. A
// journal file found at the old place beside the new one is said, every
// run, never left silent.
func TestEarlierJournalFencedOnceMoved(t *testing.T) {
	root := t.TempDir()
	was := Dirs{State: filepath.Join(root, "old-state")}
	now := Dirs{State: filepath.Join(root, "local")}
	old := filepath.Join(was.State, JournalName)
	if err := os.MkdirAll(was.State, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("old journal\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if moved := moveEarlier(was, now); len(moved) != 1 || moved[0].Err != nil {
		t.Fatalf("moved %+v, want the journal", moved)
	}
	// As an earlier version makes its state folder and appends to its
	// journal (journal.openAppend).
	if err := os.MkdirAll(was.State, 0o700); err != nil {
		t.Fatal(err)
	}
	if f, err := OpenPrivate(old, os.O_CREATE|os.O_APPEND|os.O_RDWR); err == nil {
		f.Close()
		t.Fatal("an earlier version can still make a journal at the old place once it moved")
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("a second run says %+v of the fence", again)
	}
	// The fence itself never moves, even where no journal is now.
	if err := os.Remove(filepath.Join(now.State, JournalName)); err != nil {
		t.Fatal(err)
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("with no journal in the new place, a run says %+v of the fence", again)
	}
	if _, err := os.Lstat(filepath.Join(now.State, JournalName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the fence moved to the journal's new place: %v", err)
	}
	if err := os.WriteFile(filepath.Join(now.State, JournalName), []byte("new\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A journal the fence came too late for (or written before it) is said.
	if err := os.Remove(old); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("later\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		beside := moveEarlier(was, now)
		if len(beside) != 1 || !errors.Is(beside[0].Err, ErrLeftBeside) || beside[0].From != old || beside[0].NotMoved() != nil {
			t.Fatalf("a journal beside the moved one: %+v, want it said left beside, not said not moved", beside)
		}
	}
	// Moved away as the words advise, the fence is put back: the earlier
	// version that wrote it may still run, and would make it anew unseen.
	if err := os.Rename(old, filepath.Join(root, "looked-up.jsonl")); err != nil {
		t.Fatal(err)
	}
	if again := moveEarlier(was, now); len(again) != 0 {
		t.Errorf("once the journal beside was moved away, a run says %+v", again)
	}
	if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
		t.Errorf("once the journal beside was moved away, its place is unfenced: %v", err)
	}
}

// homeWithStateFromHere gives the test a home of its own, $XDG_STATE_HOME
// the relative "old" (from run, the folder it starts in) and
// $XDG_CONFIG_HOME config (the home's .config when ""); now is where this
// version keeps its files there.
func homeWithStateFromHere(t *testing.T, config string) (run string, now Dirs) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	if config == "" {
		config = filepath.Join(home, ".config")
	}
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("APPDATA", filepath.Join(home, "roaming"))
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "local"))
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("XDG_STATE_HOME", "old")
	now, err := UserDirs()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "run"), now
}

// TestEarlierPlaceNamedWhole: an earlier state folder named by a relative
// $XDG_STATE_HOME (which earlier versions honoured, from the folder they
// started in) is named whole: a journal left there is said by its whole
// path, which the notice, plain mode and stderr name, read wherever.
func TestEarlierPlaceNamedWhole(t *testing.T) {
	run, now := homeWithStateFromHere(t, "")
	for p, s := range map[string]string{
		filepath.Join(now.State, JournalName):           "",
		filepath.Join(run, "old", AppName, JournalName): "earlier",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(run)
	beside := LeftBeside(MoveEarlierFiles())
	if len(beside) != 1 || !filepath.IsAbs(beside[0].From) || !strings.HasSuffix(beside[0].From, filepath.Join("run", "old", AppName, JournalName)) {
		t.Errorf("the journal left beside is named %+v, not by its whole path", beside)
	}
}

// TestEarlierPlaceFromHereMovesOnlyTheJournal: a relative $XDG_STATE_HOME
// or $XDG_CONFIG_HOME names a folder from wherever svcwallet starts, maybe
// the user's own project named svcwallet: only a journal is moved out of
// it (and fenced), never its other files, nor a config or keys there.
func TestEarlierPlaceFromHereMovesOnlyTheJournal(t *testing.T) {
	run, now := homeWithStateFromHere(t, "cfg")
	project := filepath.Join(run, "old", AppName)
	files := map[string]string{
		filepath.Join(project, "go.mod"):                         "module x\n",
		filepath.Join(project, "src", "main.go"):                 "package main\n",
		filepath.Join(run, "cfg", AppName, "config.toml"):        "cfg",
		filepath.Join(run, "cfg", AppName, "keystore", "UTC--k"): "key",
		filepath.Join(project, JournalName):                      "earlier\n",
	}
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(run)
	if moved := MoveEarlierFiles(); len(moved) != 1 || moved[0].Err != nil || moved[0].To != filepath.Join(now.State, JournalName) {
		t.Errorf("moved %+v, want the journal alone", moved)
	}
	if b, err := os.ReadFile(filepath.Join(now.State, JournalName)); err != nil || string(b) != "earlier\n" {
		t.Errorf("the journal moved holds %q, %v", b, err)
	}
	if fi, err := os.Lstat(filepath.Join(project, JournalName)); err != nil || !fi.IsDir() {
		t.Errorf("the journal's earlier place is not fenced: %v", err)
	}
	for p, want := range files {
		if p == filepath.Join(project, JournalName) {
			continue
		}
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s was moved or changed: %q, %v", p, b, err)
		}
	}
}

// TestEarlierJournalNotMovedSaidBeside: a journal whose move failed (its
// new place could not be looked at or its folder made, a rename refused:
// on Windows an earlier svcwallet still open holds it) stays at its
// earlier place, as unseen by the repeat guard as one left beside a
// journal in use, and the earlier version may still send from it. It is
// among the journals every face says before a withdrawal (LeftBeside), with
// why, not only in a start-up line the console's full screen covers; any
// other entry not moved is said not moved, never skipped unsaid.
func TestEarlierJournalNotMovedSaidBeside(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(root, "dangling")
	if err := os.Symlink(filepath.Join(root, "nowhere"), dangling); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	for _, now := range []Dirs{{State: filepath.Join(file, AppName)}, {State: filepath.Join(dangling, AppName)}} {
		was := Dirs{State: filepath.Join(root, "old-state")}
		old := filepath.Join(was.State, JournalName)
		if err := os.MkdirAll(was.State, 0o700); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{JournalName, "bridge-pins.json"} {
			if err := os.WriteFile(filepath.Join(was.State, name), []byte("earlier\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		moved := moveEarlier(was, now)
		if len(moved) != 2 || moved[0].Err == nil || moved[1].Err == nil {
			t.Fatalf("to %s: moved %+v, want the journal and the pins, neither moved, each with why", now.State, moved)
		}
		beside := LeftBeside(moved)
		if len(beside) != 1 || beside[0].From != old || !errors.Is(beside[0].Err, ErrLeftBeside) {
			t.Fatalf("to %s: LeftBeside gives %+v, want the journal not moved alone", now.State, beside)
		}
		if why := beside[0].Err.Error(); !strings.Contains(why, "could not be moved (") || strings.Contains(why, "at the new place already") {
			t.Errorf("to %s: the journal not moved says %q, not why", now.State, why)
		}
		// Why is the system's reason, the paths (named escaped by the
		// faces) left out.
		if nm := beside[0].NotMoved(); nm == nil || nm.Why() == "" || strings.Contains(nm.Why(), root) {
			t.Errorf("to %s: the journal not moved gives %+v, not the reason alone", now.State, nm)
		}
		if fi, err := os.Lstat(old); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("to %s: the journal not moved is no longer at its earlier place: %v", now.State, err)
		}
	}
}

// requireNotRenamedOver: rename of a file in root onto another file there
// fails, and both hold what they held.
func requireNotRenamedOver(t *testing.T, root, where string) {
	t.Helper()
	// Their names are the test's to use after.
	from, to := filepath.Join(root, "earlier.jsonl"), filepath.Join(root, "in-use.jsonl")
	for p, s := range map[string]string{from: "earlier\n", to: "in use\n"} {
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := rename(from, to); err == nil {
		t.Error("a file was moved over another" + where)
	}
	for p, want := range map[string]string{from: "earlier\n", to: "in use\n"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s holds %q, %v; want %q", p, b, err, want)
		}
	}
}

// TestMoveNeverReplaces: an earlier version's file is moved only where
// nothing is: a journal another svcwallet made at the new place in the
// instant after it was looked at (its first withdrawal) is never replaced
// by the earlier one, its lines lost and its writer left appending to a
// file no one reads. A move cut short between its two steps (the file at
// both places) is finished by the next run, not said as a journal beside.
func TestMoveNeverReplaces(t *testing.T) {
	root := t.TempDir()
	requireNotRenamedOver(t, root, "")

	was := Dirs{State: filepath.Join(root, "old-state")}
	now := Dirs{State: filepath.Join(root, "local")}
	for _, d := range []string{was.State, now.State} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	old, moved := filepath.Join(was.State, JournalName), filepath.Join(now.State, JournalName)
	if err := os.WriteFile(old, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(old, moved); err != nil {
		t.Skip("no hard links here:", err)
	}
	if m := moveEarlier(was, now); len(m) != 1 || m[0].Err != nil || len(LeftBeside(m)) != 0 {
		t.Errorf("a move cut short gives %+v, want it finished", m)
	}
	if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
		t.Errorf("a move cut short, finished, leaves its earlier place unfenced: %v", err)
	}
	if b, err := os.ReadFile(moved); err != nil || string(b) != "earlier\n" {
		t.Errorf("the journal moved holds %q, %v", b, err)
	}
}

// TestEarlierPlaceThatIsTheNewOne: the earlier place and the new one can be
// one folder under two names (a link on the way, a relative
// $XDG_STATE_HOME from the folder it names, another case on a system
// that ignores it): nothing in it is moved, removed or said. The journal
// in use was said left beside itself, with the advice to move it
// elsewhere, and a fence put in its place once it was; a key or the
// config found at both names was removed as a move cut short.
func TestEarlierPlaceThatIsTheNewOne(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.Symlink(real, filepath.Join(root, "other-name")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	now := Dirs{Config: filepath.Join(real, "config"), State: filepath.Join(real, "state"), Keystore: filepath.Join(real, "config", "keystore")}
	was := Dirs{Config: filepath.Join(root, "other-name", "config"), State: filepath.Join(root, "other-name", "state"), Keystore: filepath.Join(root, "other-name", "config", "keystore")}
	files := map[string]string{
		filepath.Join(now.State, JournalName):        "in use\n",
		filepath.Join(now.Keystore, "UTC--key"):      "key",
		filepath.Join(now.Config, "config.toml"):     "cfg",
		filepath.Join(now.State, "bridge_pins.json"): "pins",
	}
	for p, s := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if moved := moveEarlier(was, now); len(moved) != 0 {
			t.Errorf("one folder under two names: %+v", moved)
		}
		if err := os.Rename(filepath.Join(now.State, JournalName), filepath.Join(root, "elsewhere")); err != nil {
			t.Fatal(err)
		}
		if moved := moveEarlier(was, now); len(moved) != 0 {
			t.Errorf("one folder under two names, no journal in it: %+v", moved)
		}
		if err := os.Rename(filepath.Join(root, "elsewhere"), filepath.Join(now.State, JournalName)); err != nil {
			t.Fatalf("the journal's place is taken once it was moved away: %v", err)
		}
	}
	for p, want := range files {
		if b, err := os.ReadFile(p); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", p, b, err, want)
		}
	}
}

// TestMoveWithoutLinksNeverReplaces: where the filesystem has no hard links
// (FAT, some network mounts: the link fails other than "exists"), a file
// is renamed by a rename that fails over anything at the new place, never
// os.Rename, which replaced the journal made there since it was looked at;
// a folder too, even over an empty one. Where nothing is, it moves.
func TestMoveWithoutLinksNeverReplaces(t *testing.T) {
	root := t.TempDir()
	was := link
	t.Cleanup(func() { link = was })
	link = func(string, string) error { return &os.LinkError{Op: "link", Err: syscall.EPERM} }
	requireNotRenamedOver(t, root, " where links are not had")
	dir, empty := filepath.Join(root, "keystore"), filepath.Join(root, "empty")
	for _, d := range []string{dir, empty} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := rename(dir, empty); err == nil {
		t.Error("a folder was moved over an empty one")
	}
	if err := rename(filepath.Join(root, "earlier.jsonl"), filepath.Join(root, "free.jsonl")); err != nil {
		t.Errorf("a file not moved where nothing is: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "free.jsonl")); err != nil || string(b) != "earlier\n" {
		t.Errorf("the file moved holds %q, %v", b, err)
	}
}

// TestEarlierJournalLinkedNotSaidUnseen: a journal linked at its new place
// whose earlier name could not be removed (Windows: an earlier version
// holds it open) is one file at both names: what either writes is in the
// journal in use, so it is not among the journals said unseen
// (LeftBeside), only its name left (LinkedError, with why); the next run
// removes that name and fences the place.
func TestEarlierJournalLinkedNotSaidUnseen(t *testing.T) {
	root := t.TempDir()
	was, now := Dirs{State: filepath.Join(root, "old-state")}, Dirs{State: filepath.Join(root, "local")}
	old, moved := filepath.Join(was.State, JournalName), filepath.Join(now.State, JournalName)
	if err := os.MkdirAll(was.State, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	held := unlink
	t.Cleanup(func() { unlink = held })
	unlink = func(string) error { return &os.PathError{Op: "remove", Path: old, Err: syscall.EACCES} }
	for range 2 { // linked now, then found linked by the next run
		m := moveEarlier(was, now)
		var linked *LinkedError
		if len(m) != 1 || !errors.As(m[0].Err, &linked) || len(LeftBeside(m)) != 0 {
			t.Fatalf("a journal linked, its earlier name held: %+v, want it linked, not said unseen", m)
		}
		if why := m[0].Why(); why != "remove: permission denied" {
			t.Errorf("why: %q", why)
		}
		a, errA := os.Lstat(old)
		b, errB := os.Lstat(moved)
		if errA != nil || errB != nil || !os.SameFile(a, b) {
			t.Fatalf("not one file at both names: %v, %v", errA, errB)
		}
	}
	unlink = held
	if m := moveEarlier(was, now); len(m) != 1 || m[0].Err != nil {
		t.Errorf("the next run gives %+v, want the earlier name removed", m)
	}
	if fi, err := os.Lstat(old); err != nil || !fi.IsDir() {
		t.Errorf("the earlier place is not fenced once its name went: %v", err)
	}
}
