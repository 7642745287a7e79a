package service

import (
	"os"
	"path/filepath"
)

// writeStateFile replaces a small state file (recorded bridge addresses,
// the watch board's ids) atomically: a 0600 temporary file beside it,
// synced, then renamed, so a crash never leaves it half written.
func writeStateFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
