package cli

import (
	"fmt"
	"io"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
)

// Every command that moves money or grants rights names where it acts
// before anything is signed (issue 27 item 4): the environment's name,
// base URL and chain id, and on the embedded sandbox that it is a test
// exchange living inside this command.

// whereJSON is the environment in a money command's JSON review and
// result: its chain id is env_chain_id, apart from the chain_id of a
// deposit chain (the chain's own).
type whereJSON struct {
	Env     string `json:"env"`
	BaseURL string `json:"base_url"`
	ChainID uint64 `json:"env_chain_id"`
}

func whereOf(e config.Environment) whereJSON {
	return whereJSON{Env: e.Name, BaseURL: e.BaseURL, ChainID: e.ChainID}
}

// embeddedWords says what the embedded sandbox is; ends names what it
// makes that ends with the command ("its quote ids").
func embeddedWords(ends string) string {
	return config.EmbeddedWords + ", and " + ends + " end with this command"
}

// printWhere writes a review's first lines: the environment, and on the
// embedded sandbox what it is.
func printWhere(w io.Writer, e config.Environment, ends string) {
	fmt.Fprintf(w, "Environment %s\n", e.Where())
	if e.Embedded() {
		fmt.Fprintf(w, "  This is %s; choose another with --env or $%s.\n", embeddedWords(ends), envNameVar)
	}
	fmt.Fprintln(w)
}

// sayEmbedded says on stderr, where a --json review cannot, that the
// environment is the embedded sandbox.
func (a *app) sayEmbedded(e config.Environment, ends string) {
	if e.Embedded() {
		fmt.Fprintf(plain.Fitted(a.env.Stderr), "%s: environment %s, %s; choose another with --env or $%s\n", a.name, e.Name, embeddedWords(ends), envNameVar)
	}
}
