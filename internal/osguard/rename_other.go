//go:build !linux && !darwin && !windows

package osguard

// renameNoReplace renames once to is seen free (renameLooked): these
// systems give Go no rename that refuses an existing to, and a file is
// moved by a link first (rename).
func renameNoReplace(from, to string) error { return renameLooked(from, to) }
