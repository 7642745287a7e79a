package config_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestAddEnvironmentRefusesANameInAnotherCase: a name that differs from
// one the config has in case alone (Testnet beside testnet, Sandbox) is
// refused, naming the one there: a person choosing between them on a
// review takes them for one, and Windows' credential store keeps one
// session for both, each login putting out the other's.
func TestAddEnvironmentRefusesANameInAnotherCase(t *testing.T) {
	path := writeConfig(t, commented)
	e := production
	for _, c := range []struct{ name, like string }{{"Testnet", "testnet"}, {"STAGE.EU", "stage.eu"}, {"Sandbox", ""}} {
		e.Name = c.name
		var taken *config.NameTakenError
		_, err := config.AddEnvironment(path, e, true)
		if !errors.As(err, &taken) || taken.Like != c.like || c.like != "" && !strings.Contains(err.Error(), "in case alone") {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if got := read(t, path); got != commented {
		t.Errorf("the file changed:\n%s", got)
	}
	e.Name = "testnet2"
	if _, err := config.AddEnvironment(path, e, false); err != nil {
		t.Errorf("a name of its own: %v", err)
	}
}
