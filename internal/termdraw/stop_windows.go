//go:build windows

package termdraw

import "os"

// jobControl is nil on Windows, which has no jobs to stop (nor the drawer).
func jobControl() (stop func(), asked chan os.Signal) { return nil, nil }
