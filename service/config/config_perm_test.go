package config_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestLoadConfigRefusesOthersFiles: a config that another user owns or that
// group or others can write is refused with its path and the fix; so is one
// in a directory (its own or one above) that another user owns or that group
// or others can write without the sticky bit. Owner-only write, read bits
// for all, and a sticky directory writable by all (like /tmp) are accepted.
func TestLoadConfigRefusesOthersFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows reports synthetic permission bits")
	}
	const nobody = 65534
	for _, tc := range []struct {
		name    string
		change  string // "file", "dir" or "above": what is changed
		mode    os.FileMode
		chown   bool
		wantErr string // empty: accepted
		wantFix string // followed by the changed path
	}{
		{"owner only", "file", 0o600, false, "", ""},
		{"readable by all", "file", 0o644, false, "", ""},
		{"group writable", "file", 0o620, false, "is writable by group or others (mode 0620)", "chmod go-w "},
		{"others writable", "file", 0o646, false, "is writable by group or others (mode 0646)", "chmod go-w "},
		{"directory writable by others", "dir", 0o777, false, "is writable by group or others (mode 0777)", "chmod go-w "},
		{"directory writable by group", "dir", 0o770, false, "is writable by group or others (mode 0770)", "chmod go-w "},
		{"directory above writable by group", "above", 0o775, false, "is writable by group or others (mode 0775)", "chmod go-w "},
		{"sticky directory writable by others", "dir", 0o777 | os.ModeSticky, false, "", ""},
		{"owned by another user", "file", 0o644, true, "belongs to another user (uid 65534)", `sudo chown "$USER" `},
		{"directory owned by another user", "dir", 0o755, true, "belongs to another user (uid 65534)", `sudo chown "$USER" `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.chown && os.Geteuid() != 0 {
				t.Skip("giving a file to another user needs root")
			}
			above := filepath.Join(t.TempDir(), "above")
			dir := filepath.Join(above, "cfg")
			if err := os.MkdirAll(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(path, []byte(goodConfig), 0o600); err != nil {
				t.Fatal(err)
			}
			changed := map[string]string{"file": path, "dir": dir, "above": above}[tc.change]
			// Chmod, not the create mode: the umask would mask the bits.
			if err := os.Chmod(changed, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.chown {
				if err := os.Chown(changed, nobody, nobody); err != nil {
					t.Fatal(err)
				}
			}
			_, err := config.LoadConfig(path, true)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), changed+" ") ||
				!strings.Contains(err.Error(), tc.wantFix+changed) {
				t.Fatalf("error %v, want %q naming %s and %q", err, tc.wantErr, changed, tc.wantFix+changed)
			}
		})
	}
}

// TestLoadConfigHuge: a config of more than 1 MiB (a sparse file costs no
// disk) is refused, saying so once, before it is read whole: one of
// gigabytes took as much memory, and the machine's.
func TestLoadConfigHuge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 8<<20); err != nil {
		t.Fatal(err)
	}
	_, err := config.LoadConfig(path, true)
	if err == nil || !strings.Contains(err.Error(), "config "+path+" holds more than 1024 KiB, more than any config") {
		t.Fatalf("a config of 8 MiB: %v", err)
	}
}
