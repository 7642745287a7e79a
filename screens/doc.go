// Package screens assembles the console from its feature packages: login,
// home, deposit, withdraw, builder and status, one package per feature, with
// what they share in kit. A feature imports only the features it opens;
// they come back to home through kit.Makers, so none imports another in a
// circle. Each screen keeps its Msg types and key bindings at the top, does
// its I/O in tea.Cmds only, and explains failures in service's words.
package screens
