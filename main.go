// Command svcwallet is a full-screen terminal console for an exchange funding
// account: log in, deposit addresses, bridge withdrawals, builder
// authorization and withdrawal status lookup. With no configuration it runs
// against an embedded sandbox exchange. The commands live in package cli.
package main

import (
	// Initialised before any dependency can start a child: takes the secret
	// variables and hides TMUX (lipgloss runs tmux info at initialisation).
	_ "github.com/svcwallet/svcwallet/internal/startenv"
	// Initialised as soon as os/signal is: catches ctrl+\ before Go would
	// dump every goroutine's stack, until the command's handler reads it.
	_ "github.com/svcwallet/svcwallet/internal/quitcatch"

	"os"

	"github.com/svcwallet/svcwallet/internal/cli"
)

// A release build sets these at link time (goreleaser's default ldflags:
// -X main.version={{.Version}} -X main.commit={{.Commit}} -X main.date={{.Date}});
// any other build leaves them empty and its build info speaks.
var version, commit, date string

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Stamp{Version: version, Commit: commit, Date: date}))
}
