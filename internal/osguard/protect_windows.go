//go:build windows

package osguard

// ProtectProcess does nothing on Windows, which has no core size limit
// and no PR_SET_DUMPABLE: ProtectionsOn says so, and doctor with it.
func ProtectProcess() error { return nil }
