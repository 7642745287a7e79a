package osguard

import (
	"errors"

	"golang.org/x/sys/windows"
)

// isHeldOpen: MoveFileEx refuses to replace a file another handle holds
// open without FILE_SHARE_DELETE (access denied), or to move one another
// handle holds (a sharing violation): what a scanner's look gives.
func isHeldOpen(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED)
}
