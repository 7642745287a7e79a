//go:build !windows

package osguard

// MakePrivate does nothing where the 0600 and 0700 modes svcwallet creates
// its files and folders with already keep other users out.
func MakePrivate(string) error { return nil }

// CheckOwnerOnly does nothing where modes say who may open a file:
// CheckPrivatePath reads them.
func CheckOwnerOnly(string) error { return nil }

// keepsAccessLists: modes, not access lists, keep other users out here.
func keepsAccessLists(string) bool { return true }
