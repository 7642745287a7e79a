//go:build !linux && !darwin && !windows

package osguard

import "os"

// renameNoReplace renames: these systems give Go no rename that refuses
// an existing to, and a file is moved by a link first (rename).
func renameNoReplace(from, to string) error { return os.Rename(from, to) }
