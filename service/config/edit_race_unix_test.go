//go:build unix

package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

const twoEnvs = `[env.testnet]
auth_url        = "https://auth.testnet.example"
base_url        = "https://api.testnet.example"
market_data_url = "https://md.testnet.example"
chain_id        = 326
`

const stageEnv = `
[env.stage]
auth_url        = "https://auth.stage.example"
base_url        = "https://api.stage.example"
market_data_url = "https://md.stage.example"
chain_id        = 327
`

func raceConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(twoEnvs), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestEditHoldsTheConfigLock: an edit reads, changes and writes the config
// holding its lock (lockEdit: its folder's), so a second svcwallet process
// (env add, env use at once) waits, and never writes back what it read
// before the first's write: the first's environment would be lost.
func TestEditHoldsTheConfigLock(t *testing.T) {
	path := raceConfig(t)
	_, err := editConfig(path, func(text string, _ Config) (string, error) {
		f, err := os.Open(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
			t.Errorf("another process could lock the config while it was edited: %v", err)
		}
		return "bell = true\n" + text, nil
	}, func(_, after Config) bool { return after.Bell })
	if err != nil {
		t.Fatal(err)
	}
}

// TestEditLocksAFileWhereTheFolderCannotBe: a config folder the system
// will not lock (NFS takes an exclusive flock only on a file open for
// writing, so a folder's is EBADF) is edited holding the lock file in the
// state folder, as before the folder was locked: the edit failed, where
// the lock file had worked, with "bad file descriptor".
func TestEditLocksAFileWhereTheFolderCannotBe(t *testing.T) {
	was := lockFolder
	defer func() { lockFolder = was }()
	lockFolder = func(dir string, _ osguard.Wait) (func(), error) {
		return nil, &fs.PathError{Op: "lock", Path: dir, Err: syscall.EBADF}
	}
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // its lock file is left there
	path := raceConfig(t)
	lock, err := editLock(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = editConfig(path, func(text string, _ Config) (string, error) {
		f, err := os.Open(lock)
		if err != nil {
			t.Fatalf("no lock file while the folder cannot be locked: %v", err)
		}
		defer f.Close()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err, syscall.EWOULDBLOCK) {
			t.Errorf("another process could lock the config while it was edited: %v", err)
		}
		return "bell = true\n" + text, nil
	}, func(_, after Config) bool { return after.Bell })
	if err != nil {
		t.Fatalf("an edit where the folder cannot be locked: %v", err)
	}
}

// TestEditKeepsAnEditMadeMeanwhile: another program (an editor, an older
// svcwallet) writes the config between an edit's read and its write; the
// edit is made again on what it wrote, so neither is lost.
func TestEditKeepsAnEditMadeMeanwhile(t *testing.T) {
	path := raceConfig(t)
	changes := 0
	_, err := editConfig(path, func(text string, _ Config) (string, error) {
		if changes++; changes == 1 {
			if err := os.WriteFile(path, []byte(text+stageEnv), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return strings.Replace(text, "chain_id        = 326", "chain_id        = 328", 1), nil
	}, func(before, after Config) bool {
		return after.Environments["testnet"].ChainID == 328 && len(after.Environments) == len(before.Environments)
	})
	if err != nil {
		t.Fatal(err)
	}
	after, err := LoadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.Environments["stage"]; !ok {
		t.Fatalf("the environment written meanwhile was lost:\n%s", readText(t, path))
	}
	if after.Environments["testnet"].ChainID != 328 {
		t.Fatalf("the edit was lost:\n%s", readText(t, path))
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEditGivesUpOnAFileThatKeepsChanging: a config written again at each
// try is left as the other program wrote it, and the error says so.
func TestEditGivesUpOnAFileThatKeepsChanging(t *testing.T) {
	path := raceConfig(t)
	tries := 0
	_, err := editConfig(path, func(text string, _ Config) (string, error) {
		tries++
		if err := os.WriteFile(path, []byte(strings.Repeat("\n", tries)+text), 0o600); err != nil {
			t.Fatal(err)
		}
		return "bell = true\n" + text, nil
	}, func(_, after Config) bool { return after.Bell })
	if err == nil || !strings.Contains(err.Error(), "run the command again") || tries != editTries {
		t.Fatalf("after %d tries: %v", tries, err)
	}
	if got := readText(t, path); strings.Contains(got, "bell") {
		t.Fatalf("the edit was written over the other program's:\n%s", got)
	}
}

// TestEditLeavesNoLockBesideTheConfig: an edit, made or refused, leaves
// nothing beside the config nor in the state folder: it locks the config's
// folder itself. config.toml.lock stayed beside it for good, and where the
// config folder links into a dotfiles repository, in the repository.
func TestEditLeavesNoLockBesideTheConfig(t *testing.T) {
	dotfiles := t.TempDir()
	linked := filepath.Join(t.TempDir(), "svcwallet")
	if err := os.Symlink(dotfiles, linked); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(linked, "config.toml")
	if err := os.WriteFile(path, []byte(twoEnvs), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := UseEnvironment(path, "testnet"); err != nil {
		t.Fatal(err)
	}
	if _, err := UseEnvironment(path, "nowhere"); err == nil {
		t.Fatal("env use of an environment the config has not was not refused")
	}
	for _, dir := range []string{dotfiles, filepath.Join(os.Getenv("XDG_STATE_HOME"), "svcwallet")} {
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.Name() != "config.toml" {
				t.Errorf("the edit left %s in %s", e.Name(), dir)
			}
		}
	}
}

// TestEditLockIsOneWhateverTheCase: where the lock is a file (editLock,
// Windows), a config named in another case is one file on Windows' disks,
// so it is one lock: two would let two edits run at once, the second
// writing over the first.
func TestEditLockIsOneWhateverTheCase(t *testing.T) {
	dir := t.TempDir()
	lower, err := editLock(filepath.Join(dir, "svcwallet", "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	upper, err := editLock(filepath.Join(dir, "SvcWallet", "Config.toml"))
	if err != nil || upper != lower {
		t.Errorf("the lock of Config.toml is %s, of config.toml %s (%v)", upper, lower, err)
	}
}

// TestEditLockWithoutAStateFolder: where the lock is a file (editLock,
// Windows) and there is no state folder (no home, no $XDG_STATE_HOME), it
// is beside the config, named as the config is.
func TestEditLockWithoutAStateFolder(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "")
	path := filepath.Join(t.TempDir(), "SvcWallet", "Config.toml")
	if lock, err := editLock(path); err != nil || lock != path+".lock" {
		t.Errorf("the lock without a state folder is %s (%v), want %s", lock, err, path+".lock")
	}
}

// TestEditChecksWhatItChanges: an edit checks and changes one read of the
// config. A link at its name pointed at another config meanwhile (and the
// file it named written again, so the edit is made again) made the next
// try check the other config and change this one's text: refused as not
// edited, or the name checked where it was not written.
func TestEditChecksWhatItChanges(t *testing.T) {
	first := raceConfig(t)
	text := readText(t, first)
	other, link := filepath.Join(filepath.Dir(first), "other.toml"), filepath.Join(filepath.Dir(first), "link.toml")
	if err := os.WriteFile(other, []byte(text+stageEnv), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(first, link); err != nil {
		t.Fatal(err)
	}
	tries := 0
	_, err := editConfig(link, func(text string, _ Config) (string, error) {
		if tries++; tries == 1 {
			if err := os.Remove(link); err != nil || os.Symlink(other, link) != nil || os.WriteFile(first, []byte(text+"\n"), 0o600) != nil {
				t.Fatal("the link was not pointed elsewhere")
			}
		}
		return "bell = true\n" + text, nil
	}, onlyBellSet)
	if err != nil || tries != 2 {
		t.Fatalf("after %d tries: %v", tries, err)
	}
	if got := readText(t, first); !strings.HasPrefix(got, "bell = true\n") {
		t.Fatalf("the file edited is not the one checked:\n%s", got)
	}
}
