package service

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// checkConfigPermissions refuses a config file that someone other than its
// owner could have changed, as ssh does for its own: the config decides
// where logins and signatures go. It refuses a file writable by group or
// others, and one whose directory others can write without the sticky bit
// (they could replace the file). A file that cannot be stat'ed is left to
// the read, which says why. Windows reports synthetic permission bits, so
// the check does not apply there.
func checkConfigPermissions(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if perm := st.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("config %s is writable by group or others (mode %04o), and it decides where "+
			"signatures go; make it yours alone: chmod go-w %s", path, perm, path)
	}
	dirs := []string{filepath.Dir(path)}
	if real, err := filepath.EvalSymlinks(path); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = append(dirs, filepath.Dir(real))
	}
	for _, dir := range dirs {
		st, err := os.Stat(dir)
		if err != nil {
			continue
		}
		if m := st.Mode(); m.Perm()&0o002 != 0 && m&fs.ModeSticky == 0 {
			return fmt.Errorf("config %s is in directory %s, which others can write (mode %04o), so they "+
				"could replace it; chmod o-w %s, or move the config", path, dir, m.Perm(), dir)
		}
	}
	return nil
}
