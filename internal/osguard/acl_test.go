package osguard

import (
	"errors"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"strings"
	"testing"
)

// TestOwnerOnlySDDL: the list svcwallet sets is protected (P: nothing
// passed down from above) and has one entry, full access for the user,
// inherited by a folder's contents (OICI) and not a file's.
func TestOwnerOnlySDDL(t *testing.T) {
	const user = "S-1-5-21-1-2-3-1001"
	if got, want := ownerOnlySDDL(user, true), "D:P(A;OICI;FA;;;S-1-5-21-1-2-3-1001)"; got != want {
		t.Errorf("folder: %q, want %q", got, want)
	}
	if got, want := ownerOnlySDDL(user, false), "D:P(A;;FA;;;S-1-5-21-1-2-3-1001)"; got != want {
		t.Errorf("file: %q, want %q", got, want)
	}
}

// TestOwnerOnlyDecision: a list is private when it lets in only the user
// and the system's own; another user, a group such as Users or Everyone,
// or no list at all is refused with who else and the icacls fix.
func TestOwnerOnlyDecision(t *testing.T) {
	const user, other = "S-1-5-21-1-2-3-1001", "S-1-5-21-1-2-3-1002"
	allow := func(sid string) aclEntry { return aclEntry{allow: true, sid: sid, mask: 0x1f01ff} }
	for _, c := range []struct {
		name    string
		hasList bool
		entries []aclEntry
		refused string
	}{
		{"the user alone", true, []aclEntry{allow(user)}, ""},
		{"a profile's default", true, []aclEntry{allow(sidSystem), allow(sidAdministrators), allow(user)}, ""},
		{"denying others", true, []aclEntry{allow(user), {allow: false, sid: "S-1-1-0", mask: 0x1f01ff}}, ""},
		{"an empty grant", true, []aclEntry{allow(user), {allow: true, sid: other}}, ""},
		{"Users", true, []aclEntry{allow(user), allow("S-1-5-32-545")}, "Users (S-1-5-32-545)"},
		{"Everyone", true, []aclEntry{allow("S-1-1-0"), allow(user)}, "Everyone (S-1-1-0)"},
		{"another user", true, []aclEntry{allow(user), allow(other), allow(other)}, other},
		{"no list", false, nil, "every user"},
	} {
		err := ownerOnly(`C:\Users\ann\AppData\Local\svcwallet`, user, true, c.hasList, c.entries)
		if c.refused == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.name, err)
			}
			continue
		}
		var u *UnsafePathError
		if !errors.As(err, &u) || !strings.Contains(u.What, c.refused) || !strings.HasPrefix(u.Fix, `icacls "C:\Users\ann\AppData\Local\svcwallet" /inheritance:r /grant:r "*`+user+`:(OI)(CI)F"`) {
			t.Errorf("%s: %v, want a refusal naming %s with the icacls fix", c.name, err, c.refused)
		}
		if c.name == "another user" && strings.Count(u.What, other) != 1 {
			t.Errorf("%s: %q names them twice", c.name, u.What)
		}
	}
}

// TestOwnerOnlyHostileName: a path whose name holds what a terminal acts
// on or hides (a bidi override, an escape) is named escaped (Shown), and
// no icacls command names it (RenameFirst).
func TestOwnerOnlyHostileName(t *testing.T) {
	const user, other = "S-1-5-21-1-2-3-1001", "S-1-5-21-1-2-3-1002"
	path := `C:\Users\ann\keys\yek.` + "\u202e" + "exe\x1b[2J"
	for _, hasList := range []bool{true, false} {
		err := ownerOnly(path, user, false, hasList, []aclEntry{{allow: true, sid: user, mask: 0x1f01ff}, {allow: true, sid: other, mask: 0x1f01ff}})
		var u *UnsafePathError
		if !errors.As(err, &u) || strings.ContainsAny(u.What+u.Fix, "\u202e\x1b") || !strings.Contains(u.What, safetext.Shown(path)) || u.Fix != RenameFirst {
			t.Errorf("with a list %v: %q", hasList, err)
		}
	}
}

// TestIcaclsFixQuoted: the icacls command runs as printed in cmd.exe and
// PowerShell alike: every word in double quotes (PowerShell reads a bare
// (OI)(CI) as a subexpression, and a bare path splits at its spaces); a
// path holding what either expands inside them (cmd's %NAME%,
// PowerShell's $name and `) is renamed first.
func TestIcaclsFixQuoted(t *testing.T) {
	const user, other = "S-1-5-21-1-2-3-1001", "S-1-5-32-545"
	if got, want := icaclsFix(`C:\Program Files (x86)\svc wallet`, user, true, []string{other}),
		`icacls "C:\Program Files (x86)\svc wallet" /inheritance:r /grant:r "*`+user+`:(OI)(CI)F" /remove "*`+other+`"`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, path := range []string{`C:\Users\%USERNAME%\keys`, `C:\Users\ann\$env:TEMP`, "C:\\Users\\ann\\a`nb"} {
		if got := icaclsFix(path, user, false, nil); got != RenameFirst {
			t.Errorf("%s: %s, want %q", path, got, RenameFirst)
		}
	}
}
