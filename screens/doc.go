// Package screens holds one file per console screen. Each screen keeps its
// Msg types and key bindings at the top, does its I/O in tea.Cmds only, and
// explains failures in the words of service.Explain; what screens share is
// in screens/kit.
package screens
