// Package screens assembles the console from its feature packages: login,
// home, deposit, withdraw, builder, status (one withdrawal), history and
// board (the watch board), with what they share in kit.
// A feature imports no other feature; Console hands them kit.Makers, the
// constructors through which they open one another. Each screen keeps its
// Msg types and key bindings at the top, does its I/O in tea.Cmds only, and
// explains failures in service's words.
package screens
