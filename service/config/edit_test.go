package config_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

const commented = `# my svcwallet config
# default_env comes first
default_env = "testnet"   # the one I use
bell = true

# the test network
[env.testnet]
auth_url        = "https://auth.testnet.example"
base_url        = "https://api.testnet.example"   # the API
market_data_url = "https://md.testnet.example"
chain_id        = 326
[env.testnet.explorer_tx]
ARBITRUM = "https://arbiscan.io/tx/{hash}"

# staging, behind the VPN
[env."stage.eu"]
auth_url        = "https://auth.stage.example"
base_url        = "https://api.stage.example"
market_data_url = "https://md.stage.example"
chain_id        = 327
# end of file
`

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var production = config.Environment{Name: "production", AuthURL: "https://auth.example", BaseURL: "https://api.example",
	MarketDataURL: "https://md.example", ChainID: 325, DomainName: "Brand Exchange", CookieName: "brand"}

// TestAddEnvironmentKeepsTheFile: env add appends a table, and every byte
// before it, comments and order included, stays.
func TestAddEnvironmentKeepsTheFile(t *testing.T) {
	path := writeConfig(t, commented)
	if _, err := config.AddEnvironment(path, production, false); err != nil {
		t.Fatal(err)
	}
	got := read(t, path)
	if !strings.HasPrefix(got, commented) {
		t.Fatalf("the file before the new table changed:\n%s", got)
	}
	want := "\n[env.production]\nauth_url        = \"https://auth.example\"\nbase_url        = \"https://api.example\"\nmarket_data_url = \"https://md.example\"\nchain_id        = 325\ndomain_name = \"Brand Exchange\"\ncookie_name = \"brand\"\n"
	if got[len(commented):] != want {
		t.Errorf("appended:\n%q\nwant\n%q", got[len(commented):], want)
	}
	cfg, err := config.LoadConfig(path, true)
	if err != nil || cfg.Environments["production"].CookieName != "brand" || len(cfg.Environments) != 3 {
		t.Errorf("read back: %+v, %v", cfg.Environments, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

// TestAddEnvironmentRefuses: a name taken (the sandbox's too), or a second
// name for a service another reaches unless alias; nothing is written.
func TestAddEnvironmentRefuses(t *testing.T) {
	path := writeConfig(t, commented)
	same := production
	same.Name, same.ChainID = "tn", 326
	var ss *config.SameServiceError
	for _, base := range []string{"https://API.testnet.example.:0443", "https://API.testnet.example:443"} {
		same.BaseURL = base
		if _, err := config.AddEnvironment(path, same, false); !errors.As(err, &ss) || ss.Other != "testnet" {
			t.Errorf("a second name for testnet's service, %s: %v", base, err)
		}
	}
	taken := production
	taken.Name = "testnet"
	var nt *config.NameTakenError
	if _, err := config.AddEnvironment(path, taken, false); !errors.As(err, &nt) {
		t.Errorf("a name taken: %v", err)
	}
	taken.Name = config.SandboxEnv
	if _, err := config.AddEnvironment(path, taken, false); !errors.As(err, &nt) {
		t.Errorf("sandbox: %v", err)
	}
	if read(t, path) != commented {
		t.Error("a refused add wrote the file")
	}
	if _, err := config.AddEnvironment(path, same, true); err != nil {
		t.Errorf("an alias: %v", err)
	}
}

// TestUseEnvironmentReplacesOneValue: env use changes default_env's value
// alone (its comment stays), or adds the line after the last setting, else
// above the comment that heads the first table.
func TestUseEnvironmentReplacesOneValue(t *testing.T) {
	path := writeConfig(t, commented)
	if _, err := config.UseEnvironment(path, "stage.eu"); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, path), strings.Replace(commented, `default_env = "testnet"   # the one I use`, `default_env = "stage.eu"   # the one I use`, 1); got != want {
		t.Errorf("got\n%s", got)
	}
	without := strings.Replace(commented, "default_env = \"testnet\"   # the one I use\n", "", 1)
	path = writeConfig(t, without)
	if _, err := config.UseEnvironment(path, "testnet"); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, path), strings.Replace(without, "bell = true\n", "bell = true\ndefault_env = \"testnet\"\n", 1); got != want {
		t.Errorf("added after the last setting:\n%s", got)
	}
	bare := strings.Replace(without, "bell = true\n", "", 1)
	path = writeConfig(t, bare)
	if _, err := config.UseEnvironment(path, "testnet"); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, path), strings.Replace(bare, "\n# the test network\n", "\ndefault_env = \"testnet\"\n\n# the test network\n", 1); got != want {
		t.Errorf("added above the first table's comment:\n%s", got)
	}
	if _, err := config.UseEnvironment(path, "nowhere"); err == nil {
		t.Error("an unknown name is used")
	}
}

// TestRemoveEnvironmentTakesItsTablesOut: env remove takes the table, its
// subtables and the comment right above it out, the rest (comments
// included) stays, a comment that starts the file too; the default is
// refused, and one written otherwise is left for the user.
func TestRemoveEnvironmentTakesItsTablesOut(t *testing.T) {
	path := writeConfig(t, commented)
	if _, err := config.UseEnvironment(path, "stage.eu"); err != nil {
		t.Fatal(err)
	}
	text := read(t, path)
	if _, err := config.RemoveEnvironment(path, "testnet"); err != nil {
		t.Fatal(err)
	}
	start := strings.Index(text, "\n# the test network")
	end := strings.Index(text, "\n# staging")
	if got, want := read(t, path), text[:start]+text[end:]; got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var de *config.DefaultEnvError
	if _, err := config.RemoveEnvironment(path, "stage.eu"); !errors.As(err, &de) {
		t.Errorf("the default: %v", err)
	}
	tables := strings.SplitAfter(commented, "# the test network\n")[1]
	headed := writeConfig(t, "# my config\n"+tables)
	if _, err := config.RemoveEnvironment(headed, "testnet"); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, headed), "# my config\n"+tables[strings.Index(tables, "\n# staging"):]; got != want {
		t.Errorf("the file's first comment:\ngot\n%s\nwant\n%s", got, want)
	}
	inline := writeConfig(t, "env.local.auth_url = \"http://127.0.0.1:8700\"\nenv.local.base_url = \"http://127.0.0.1:8700\"\nenv.local.market_data_url = \"http://127.0.0.1:8700\"\nenv.local.chain_id = 327\n")
	if _, err := config.RemoveEnvironment(inline, "local"); !errors.Is(err, config.ErrNotEdited) {
		t.Errorf("dotted keys: %v", err)
	}
}

// TestAddEnvironmentMakesTheFile: with no config yet, env add makes it.
func TestAddEnvironmentMakesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "svcwallet", "config.toml")
	if _, err := config.AddEnvironment(path, production, false); err != nil {
		t.Fatal(err)
	}
	if _, err := config.UseEnvironment(path, "production"); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadConfig(path, true)
	if err != nil || cfg.DefaultEnv != "production" || cfg.Environments["production"].BaseURL != production.BaseURL {
		t.Errorf("%+v, %v\n%s", cfg, err, read(t, path))
	}
}
