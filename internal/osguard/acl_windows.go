package osguard

import (
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// MakePrivate gives path an access control list that lets in its owner
// alone (ownerOnlySDDL), protected from what the folders above would pass
// down; a folder's list is inherited by what it holds and will hold.
func MakePrivate(path string) error {
	user, err := currentUserSID()
	if err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	sd, err := windows.SecurityDescriptorFromString(ownerOnlySDDL(user, fi.IsDir()))
	if err != nil {
		return fmt.Errorf("owner-only access list: %w", err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return fmt.Errorf("owner-only access list: %w", err)
	}
	err = windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil)
	if err != nil {
		return fmt.Errorf("cannot make %s private to you: %w", safetext.Shown(path), err)
	}
	return nil
}

// CheckOwnerOnly reads path's access control list and refuses one that
// lets in another user (ownerOnly). A path that does not exist is not
// refused.
func CheckOwnerOnly(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	user, err := currentUserSID()
	if err != nil {
		return err
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("cannot read who may open %s: %w", safetext.Shown(path), err)
	}
	dacl, _, err := sd.DACL()
	if err != nil && err != windows.ERROR_OBJECT_NOT_FOUND {
		return fmt.Errorf("cannot read who may open %s: %w", safetext.Shown(path), err)
	}
	var entries []aclEntry
	if dacl != nil {
		for i := range uint32(dacl.AceCount) {
			var ace *windows.ACCESS_ALLOWED_ACE
			if err := windows.GetAce(dacl, i, &ace); err != nil {
				return fmt.Errorf("cannot read who may open %s: %w", safetext.Shown(path), err)
			}
			sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
			entries = append(entries, aclEntry{allow: ace.Header.AceType == windows.ACCESS_ALLOWED_ACE_TYPE, sid: sid.String(), mask: uint32(ace.Mask)})
		}
	}
	return ownerOnly(path, user, fi.IsDir(), dacl != nil, entries)
}

// currentUserSID is the SID of the user this process runs as.
func currentUserSID() (string, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("cannot tell which user this is: %w", err)
	}
	return u.User.Sid.String(), nil
}

// keepsAccessLists tells whether the volume holding path keeps access
// lists: a FAT or exFAT stick, where offline signing's file may well go,
// keeps none. When the volume cannot be asked, it is taken to keep them.
func keepsAccessLists(path string) bool {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return true
	}
	root := make([]uint16, windows.MAX_PATH+1)
	if windows.GetVolumePathName(p, &root[0], uint32(len(root))) != nil {
		return true
	}
	var flags uint32
	if windows.GetVolumeInformation(&root[0], nil, 0, nil, nil, &flags, nil, 0) != nil {
		return true
	}
	return flags&windows.FILE_PERSISTENT_ACLS != 0
}
