package osguard

// Protections is what ProtectProcess turns on, on a system.
type Protections struct {
	// NotDumpable: no ptrace attach and no /proc/PID/mem for other
	// processes of the same user (Linux).
	NotDumpable bool
	// NoCoreFiles: the core size limit is 0, soft and hard (every unix).
	NoCoreFiles bool
}

// ProtectionsOn is what ProtectProcess turns on where goos is the system:
// both on Linux, the core size limit on the other unix systems, nothing on
// Windows, which has neither.
func ProtectionsOn(goos string) Protections {
	switch goos {
	case "linux", "android":
		return Protections{NotDumpable: true, NoCoreFiles: true}
	case "darwin", "ios", "freebsd", "openbsd", "netbsd", "dragonfly", "solaris", "illumos", "aix", "hurd":
		return Protections{NoCoreFiles: true}
	}
	return Protections{}
}
