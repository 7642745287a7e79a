package cli

import (
	"path/filepath"
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/journal"
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

// checkFileModes reads, where modes mean nothing (Windows), who may open
// the keystore, the state folder, the journal and the session store: each
// must let in the user alone (osguard.CheckOwnerOnly), as svcwallet makes
// them. Silence would read as "checked and fine", so it says what it read.
func (c doctorCmd) checkFileModes(add func(check, detail, fix string)) {
	if c.modesMean() {
		return
	}
	var paths []string
	if dir, err := keystoreDir("", c.env); err == nil {
		paths = append(paths, dir)
	}
	journalPath := journal.DefaultPath()
	paths = append(paths, filepath.Dir(journalPath), journalPath)
	paths = append(paths, c.privateFiles...)
	ok := true
	for _, p := range paths {
		if err := c.ownerOnly(p); err != nil {
			ok = false
			addUnsafe(add, "files", err)
		}
	}
	if ok {
		add("files", "the keystore, the state folder, the journal and the session store let in you alone (their access lists read on "+systemName(c.goos)+")", "")
	}
}

// checkVariables names the variables svcwallet reads that are set (a
// secret's name alone), so a stray one is seen.
func (c doctorCmd) checkVariables(add func(check, detail, fix string)) {
	set := variablesSet(c.env.Getenv)
	if len(set) == 0 {
		add("variables", "none of the variables svcwallet reads is set (svcwallet man, ENVIRONMENT, lists them)", "")
		return
	}
	add("variables", "set: "+strings.Join(set, ", "), "")
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
