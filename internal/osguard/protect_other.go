//go:build !linux

package osguard

// ProtectProcess does nothing outside Linux: PR_SET_DUMPABLE is
// Linux-only, and the other systems' core file settings are left to the user.
func ProtectProcess() error { return nil }
