package config

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestEditLockIsOneForEveryStateFolder: while one process edits the config,
// a second editing it (env add at once) waits, whether its $XDG_STATE_HOME
// is another folder or it has none: the lock was named from the state
// folder, so each took a lock of its own and could write back what it read
// before the first's write, losing the first's environment. A process
// waiting on a lock is seen in /proc/locks; one that edits meanwhile exits.
func TestEditLockIsOneForEveryStateFolder(t *testing.T) {
	path := raceConfig(t)
	others := map[string][]string{
		"other": {"XDG_STATE_HOME=" + t.TempDir()},
		"none":  {"XDG_STATE_HOME=", "HOME="},
	}
	var waits []func() error
	err := editConfig(path, func(text string, _ Config) (string, error) {
		for name, env := range others {
			cmd := exec.Command(os.Args[0], "-test.run=^TestEditLockHelperProcess$")
			cmd.Env = append(os.Environ(), append(env, "SVCWALLET_TEST_EDIT="+path, "SVCWALLET_TEST_ENV="+name)...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			if !waitsOnALock(t, cmd.Process.Pid, done) {
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

// waitsOnALock reports whether the process pid comes to wait on a lock
// (a "->" row of /proc/locks) before it exits (done).
func waitsOnALock(t *testing.T, pid int, done chan error) bool {
	t.Helper()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			done <- err
			return false
		case <-tick.C:
			b, err := os.ReadFile("/proc/locks")
			if err != nil {
				t.Skipf("no /proc/locks: %v", err)
			}
			for _, row := range strings.Split(string(b), "\n") {
				if f := strings.Fields(row); len(f) > 5 && f[1] == "->" && f[5] == strconv.Itoa(pid) {
					return true
				}
			}
		}
	}
}

// TestEditLockHelperProcess is the second process of
// TestEditLockIsOneForEveryStateFolder: it adds an environment named
// $SVCWALLET_TEST_ENV to the config at $SVCWALLET_TEST_EDIT.
func TestEditLockHelperProcess(t *testing.T) {
	path, name := os.Getenv("SVCWALLET_TEST_EDIT"), os.Getenv("SVCWALLET_TEST_ENV")
	if path == "" {
		t.Skip("run by TestEditLockIsOneForEveryStateFolder")
	}
	err := editConfig(path, func(text string, _ Config) (string, error) {
		return text + strings.ReplaceAll(stageEnv, "stage", name), nil
	}, func(_, after Config) bool { _, ok := after.Environments[name]; return ok })
	if err != nil {
		t.Fatal(err)
	}
}
