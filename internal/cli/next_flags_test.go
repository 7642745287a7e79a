package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/service/builder"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestNextCarriesTheFlagsEachCommandTakes: a command printed to run next
// (runnext.Command, every face's) carries --env and --config where the
// command takes them, and only there: `key import --env sandbox` is
// refused whole ("unknown flag: --env"), and `auth login` without them
// logs in elsewhere. Every runnable command of the tree is asked.
func TestNextCarriesTheFlagsEachCommandTakes(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() {
			has := func(name string) bool { return c.Flags().Lookup(name) != nil || c.InheritedFlags().Lookup(name) != nil }
			words := strings.Fields(strings.TrimPrefix(c.CommandPath(), "svcwallet"))
			line := runnext.Command("/my cfg/c.toml", "prod", words...)
			if got := strings.Contains(line, " --env prod"); got != has("env") {
				t.Errorf("%q: --env printed %v, taken %v", line, got, has("env"))
			}
			if got := strings.Contains(line, " --config '/my cfg/c.toml'"); got != has("config") {
				t.Errorf("%q: --config printed %v, taken %v", line, got, has("config"))
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newApp(CLIEnv{Getenv: func(string) string { return "" }}).rootCommand())
}

// TestBuilderRefusalPreparesAgainWhereItWas: a refusal of a builder
// authorization signed offline names the preparation to run again on the
// environment and the config it was prepared on.
func TestBuilderRefusalPreparesAgainWhereItWas(t *testing.T) {
	a := newApp(CLIEnv{Getenv: func(string) string { return "" }})
	a.configPath = "/my cfg/c.toml"
	c := builderCmd{app: a, env: a.env}
	err := c.authorized(context.Background(), config.Environment{Name: "prod"}, builder.Auth{}, builder.Order{}, exchange.BuilderAuthorizeResult{},
		&exchange.APIError{Status: 400, Code: exchange.CodeExpirationTooFar}, false, true)
	want := "prepare it again (svcwallet builder authorize --signer offline --env prod --config '/my cfg/c.toml') with a shorter --expires"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v\nwant it to say %s", err, want)
	}
}
