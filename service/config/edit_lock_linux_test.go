package config

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// TestEditLockIsOneForEveryStateFolder: while one process edits the config,
// a second editing it (env add at once) waits, whether its $XDG_STATE_HOME
// is another folder or it has none: the lock was named from the state
// folder, so each took a lock of its own and could write back what it read
// before the first's write, losing the first's environment. A process
// waiting on a lock says so on its stdout; one that edits meanwhile exits.
func TestEditLockIsOneForEveryStateFolder(t *testing.T) {
	path := raceConfig(t)
	others := map[string][]string{
		"other": {"XDG_STATE_HOME=" + t.TempDir()},
		"none":  {"XDG_STATE_HOME=", "HOME="},
	}
	var waits []func() error
	_, err := editConfig(path, func(text string, _ Config) (string, error) {
		for name, env := range others {
			cmd := exec.Command(os.Args[0], "-test.run=^TestEditLockHelperProcess$")
			cmd.Env = append(os.Environ(), append(env, "SVCWALLET_TEST_EDIT="+path, "SVCWALLET_TEST_ENV="+name)...)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waiting := make(chan bool, 1)
			go func() { waiting <- saysItWaits(out) }()
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if !<-waiting {
				t.Errorf("a process with state folder %q edited the config while another held its lock", name)
				continue
			}
			waits = append(waits, func() error { return <-done })
		}
		return "bell = true\n" + text, nil
	}, func(_, after Config) bool { return after.Bell })
	if err != nil {
		t.Fatal(err)
	}
	for _, wait := range waits {
		if err := wait(); err != nil {
			t.Fatalf("the waiting edit: %v", err)
		}
	}
	after, err := LoadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	for name := range others {
		if _, ok := after.Environments[name]; !ok || !after.Bell {
			t.Errorf("an edit was lost:\n%s", readText(t, path))
		}
	}
}

// waitingOnALock is the line the helper process prints when its edit
// waits on a lock held by another.
const waitingOnALock = "svcwallet test: waiting on a lock"

// saysItWaits reports whether out, a helper process's stdout, says it
// waits on a lock before it ends; the rest of out is dropped.
func saysItWaits(out io.Reader) bool {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == waitingOnALock {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return true
		}
	}
	return false
}

// TestEditLockHelperProcess is the second process of
// TestEditLockIsOneForEveryStateFolder: it adds an environment named
// $SVCWALLET_TEST_ENV to the config at $SVCWALLET_TEST_EDIT.
func TestEditLockHelperProcess(t *testing.T) {
	path, name := os.Getenv("SVCWALLET_TEST_EDIT"), os.Getenv("SVCWALLET_TEST_ENV")
	if path == "" {
		t.Skip("run by TestEditLockIsOneForEveryStateFolder")
	}
	var once sync.Once
	defer osguard.SetLockWaits(osguard.LockWaits{After: func(d time.Duration) <-chan time.Time {
		once.Do(func() { fmt.Println(waitingOnALock) })
		return time.After(d)
	}})()
	_, err := editConfig(path, func(text string, _ Config) (string, error) {
		return text + strings.ReplaceAll(stageEnv, "stage", name), nil
	}, func(_, after Config) bool { _, ok := after.Environments[name]; return ok })
	if err != nil {
		t.Fatal(err)
	}
}
