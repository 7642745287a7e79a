//go:build unix && !linux

package osguard

// ProtectProcess keeps private keys held in this process's memory out of
// core files (the core size limit is 0); these systems have no
// PR_SET_DUMPABLE, so a debugger of the same user is not kept out.
// Every command that may load a key calls it once, before reading any.
func ProtectProcess() error { return noCoreFiles() }
