package service_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"svcwallet/service"
)

// TestLoadConfigRefusesWritableByOthers: a config that group or others can
// write is refused with its path and the chmod that fixes it; so is one in a
// directory others can write without the sticky bit. Owner-only write, and a
// world-writable directory with the sticky bit (like /tmp), are accepted.
func TestLoadConfigRefusesWritableByOthers(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows reports synthetic permission bits")
	}
	for _, tc := range []struct {
		name             string
		file, dir        os.FileMode
		wantErr, wantFix string // empty: accepted
	}{
		{"owner only", 0o600, 0o700, "", ""},
		{"readable by all", 0o644, 0o755, "", ""},
		{"group writable", 0o620, 0o700, "is writable by group or others (mode 0620)", "chmod go-w "},
		{"others writable", 0o646, 0o700, "is writable by group or others (mode 0646)", "chmod go-w "},
		{"directory writable by others", 0o600, 0o777, "which others can write (mode 0777)", "chmod o-w "},
		{"sticky directory writable by others", 0o600, 0o777 | os.ModeSticky, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "cfg")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "config.toml")
			if err := os.WriteFile(path, []byte(goodConfig), 0o600); err != nil {
				t.Fatal(err)
			}
			// Chmod, not the create mode: the umask would mask the bits.
			if err := os.Chmod(path, tc.file); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tc.dir); err != nil {
				t.Fatal(err)
			}
			_, err := service.LoadConfig(path, true)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			fixed := dir
			if tc.dir&0o002 == 0 {
				fixed = path
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), path) ||
				!strings.Contains(err.Error(), tc.wantFix+fixed) {
				t.Fatalf("error %v, want %q naming %s and %q", err, tc.wantErr, path, tc.wantFix+fixed)
			}
		})
	}
}
