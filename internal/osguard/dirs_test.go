package osguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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
