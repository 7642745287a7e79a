//go:build windows

package termdraw

// jobStopper is nil on Windows, which has no jobs to stop (nor the drawer).
func jobStopper() func() { return nil }
