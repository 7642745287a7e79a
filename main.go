// Command svcwallet is a full-screen terminal console for an exchange funding
// account: log in, deposit addresses, bridge withdrawals, builder
// authorization and withdrawal status lookup. With no configuration it runs
// against an embedded sandbox exchange. The commands live in package cli.
package main

import (
	"os"

	"github.com/svcwallet/svcwallet/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
