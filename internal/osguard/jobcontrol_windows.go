//go:build windows

package osguard

import "os"

// JobControl is nil on Windows, which has no jobs to stop.
func JobControl() (stop func(), asked chan os.Signal) { return nil, nil }
