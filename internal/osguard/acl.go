package osguard

import (
	"fmt"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"slices"
	"strings"
)

// On Windows a file's mode bits say nothing about who may open it (Go makes
// them up from the read-only attribute): its access control list does. The
// keystore, the journal, the session store and the state folder get one
// that lets in their owner alone (MakePrivate), and doctor reads it back
// (CheckOwnerOnly). What decides lives here, on every system, so it is
// tested everywhere; acl_windows.go only reads and writes the lists.

// Well-known security identifiers of Windows.
const (
	sidSystem         = "S-1-5-18"     // the operating system itself
	sidAdministrators = "S-1-5-32-544" // who may take any file anyway
)

// sidNames are the names of the groups a list most often wrongly lets in.
var sidNames = map[string]string{
	"S-1-1-0":      "Everyone",
	"S-1-5-11":     "Authenticated Users",
	"S-1-5-32-545": "Users",
	"S-1-5-32-546": "Guests",
	"S-1-5-7":      "Anonymous",
}

// ownerOnlySDDL is the security descriptor MakePrivate sets, in SDDL: a
// protected list (nothing inherited from the folders above) with one entry,
// full access for user, which a folder's files and subfolders inherit.
func ownerOnlySDDL(user string, dir bool) string {
	inherit := ""
	if dir {
		inherit = "OICI"
	}
	return "D:P(A;" + inherit + ";FA;;;" + user + ")"
}

// aclEntry is one entry of an access control list, as read back.
type aclEntry struct {
	allow bool
	sid   string
	mask  uint32
}

// ownerOnly decides whether a list lets in anyone but user and the
// system's own (SYSTEM, Administrators, who can open any file anyway):
// none when it is private; an *UnsafePathError naming who else, and the
// command that fixes it, when not. A missing list (hasList false) lets in
// everyone. Deny entries only take away, so they are not counted.
func ownerOnly(path, user string, dir, hasList bool, entries []aclEntry) error {
	if !hasList {
		return &UnsafePathError{
			What: safetext.Shown(path) + " has no access control list: every user of this computer may open it",
			Fix:  icaclsFix(path, user, dir, nil),
		}
	}
	var others []string
	for _, e := range entries {
		if !e.allow || e.mask == 0 || e.sid == user || e.sid == sidSystem || e.sid == sidAdministrators || slices.Contains(others, e.sid) {
			continue
		}
		others = append(others, e.sid)
	}
	if len(others) == 0 {
		return nil
	}
	named := make([]string, len(others))
	for i, sid := range others {
		named[i] = sid
		if n, ok := sidNames[sid]; ok {
			named[i] = n + " (" + sid + ")"
		}
	}
	return &UnsafePathError{
		What: fmt.Sprintf("%s may be opened by others than you: %s", safetext.Shown(path), strings.Join(named, ", ")),
		Fix:  icaclsFix(path, user, dir, others),
	}
}

// icaclsFix is the command that gives path an owner-only list, as
// MakePrivate does (svcwallet also does so when it next writes the file),
// run alike pasted in cmd.exe or PowerShell: each word in double quotes,
// so the grant's (OI)(CI) is no PowerShell subexpression. Inside them cmd
// still expands %NAME% and PowerShell $name and `, so a path holding one
// is renamed first (RenameFirst), as one a terminal would not show is.
func icaclsFix(path, user string, dir bool, others []string) string {
	if strings.ContainsAny(path, "%$`\"") {
		return RenameFirst
	}
	grant := "*" + user + ":F"
	if dir {
		grant = "*" + user + ":(OI)(CI)F"
	}
	fix := fmt.Sprintf(`icacls "%s" /inheritance:r /grant:r "%s"`, path, grant)
	for _, sid := range others {
		fix += ` /remove "*` + sid + `"`
	}
	return FixOf(path, fix)
}
