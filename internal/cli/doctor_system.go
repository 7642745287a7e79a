package cli

import (
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// systemNames are the systems doctor names, as their users call them.
var systemNames = map[string]string{"windows": "Windows", "darwin": "macOS", "freebsd": "FreeBSD", "openbsd": "OpenBSD", "netbsd": "NetBSD"}

func systemName(goos string) string {
	if n, ok := systemNames[goos]; ok {
		return n
	}
	return goos
}

// modesMean reports whether a file's permission bits say who may open it:
// not on Windows, where Go makes them up from the read-only attribute
// (every file 0666), so a check of them would warn of every file.
func (c doctorCmd) modesMean() bool { return c.goos != "windows" }

// checkFileModes says, where file permissions are not checked, that they
// are not: silence would read as "checked and fine".
func (c doctorCmd) checkFileModes(add func(check, detail, fix string)) {
	if c.modesMean() {
		return
	}
	add("files", "file permissions are not checked on "+systemName(c.goos)+
		" (svcwallet reads no owner or ACL there): keep its config, keystore and state in your own user profile, which other users cannot open by default", "")
}

// checkProcess reports the protections of svcwallet's process on this
// system, asking for them again (Main did before the command ran), so
// what is reported is what holds.
func (c doctorCmd) checkProcess(add func(check, detail, fix string)) {
	if err := c.protect(); err != nil {
		add("process", "the process's protections could not be turned on: "+err.Error(),
			"run svcwallet where it may set its own limits (a seccomp or container policy may forbid prctl and setrlimit); until then a key it holds can reach a core file")
		return
	}
	add("process", protectionWords(c.goos), "")
}

// protectionWords says which of osguard.ProtectProcess's protections are
// on where goos is the system, and what is not kept out where one is
// missing.
func protectionWords(goos string) string {
	p := osguard.ProtectionsOn(goos)
	var on []string
	if p.NotDumpable {
		on = append(on, "not dumpable (no debugger attaches, and no other process of yours reads its memory through /proc)")
	}
	if p.NoCoreFiles {
		on = append(on, "core files off (core size limit 0)")
	}
	switch {
	case len(on) == 0:
		return "no process protections on " + systemName(goos) + ": crash dumps and debuggers are not kept from svcwallet's memory there"
	case !p.NotDumpable:
		return "protections on: " + strings.Join(on, ", ") + "; a debugger run by your user is not kept out on " + systemName(goos)
	}
	return "protections on: " + strings.Join(on, ", ")
}
