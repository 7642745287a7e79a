//go:build !windows

package osguard

// isHeldOpen: elsewhere a rename replaces a file whoever holds it open.
func isHeldOpen(error) bool { return false }
