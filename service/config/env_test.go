package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/signer"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const goodConfig = `
default_env = "testnet"
theme = "light"

[env.testnet]
auth_url        = "https://auth.testnet.example"
base_url        = "https://api.testnet.example/"
market_data_url = "https://md.testnet.example"
chain_id        = 326
domain_name     = "Other Exchange"
bridge_funding_address = "0x6e3a360d75Dd3E83948f7977b92b21827a89E012"
[env.testnet.explorer_tx]
ARBITRUM = "https://arbiscan.io/tx/{hash}"

[env.local]
auth_url        = "http://127.0.0.1:8700"
base_url        = "http://localhost:8700"
market_data_url = "http://[::1]:8700"
chain_id        = 327
`

func TestLoadConfig(t *testing.T) {
	cfg, err := config.LoadConfig(writeConfig(t, goodConfig), true)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.DefaultEnv != "testnet" || cfg.Theme != "light" || !reflect.DeepEqual(cfg.Names(), []string{"local", "testnet"}) {
		t.Fatalf("config %+v, names %v", cfg, cfg.Names())
	}
	tn, err := cfg.Lookup("testnet")
	if err != nil {
		t.Fatal(err)
	}
	want := config.Environment{
		Name: "testnet", AuthURL: "https://auth.testnet.example", BaseURL: "https://api.testnet.example/",
		MarketDataURL: "https://md.testnet.example", ChainID: 326, DomainName: "Other Exchange",
		ExplorerTx:           map[string]string{"ARBITRUM": "https://arbiscan.io/tx/{hash}"},
		BridgeFundingAddress: "0x6e3a360d75Dd3E83948f7977b92b21827a89E012",
	}
	if !reflect.DeepEqual(tn, want) {
		t.Fatalf("testnet %+v, want %+v", tn, want)
	}
	if d := tn.Domain(); d.Name != "Other Exchange" || d.ChainID != 326 {
		t.Fatalf("domain %+v", d)
	}
	local, _ := cfg.Lookup("local")
	if d := local.Domain(); d.Name != signer.DefaultDomainName || d.ChainID != 327 {
		t.Fatalf("default domain %+v", d)
	}
	if _, err := cfg.Lookup("production"); err == nil || !strings.Contains(err.Error(), `no environment "production"`) || !strings.Contains(err.Error(), "local") {
		t.Fatalf("lookup of an unknown env: %v", err)
	}
	// A name refused is said as a refused name is: a recovery phrase or a
	// key set in $SVCWALLET_ENV by mistake was repeated whole.
	for _, c := range []config.Config{cfg, {}} {
		for _, name := range []string{"legal winner thank year wave sausage worth useful legal winner thank yellow", "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"} {
			if _, err := c.Lookup(name); err == nil || strings.Contains(err.Error(), "sausage") || strings.Contains(err.Error(), "ac0974bec") {
				t.Errorf("lookup of %.12q…: %v", name, err)
			}
		}
	}
}

func TestLoadConfigMissingFile(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.toml")
	if cfg, err := config.LoadConfig(missing, false); err != nil || len(cfg.Environments) != 0 {
		t.Fatalf("missing default config: %+v, %v", cfg, err)
	}
	if _, err := config.LoadConfig(missing, true); err == nil || !strings.Contains(err.Error(), "does not exist: create it") || strings.Contains(err.Error(), "no such file") {
		t.Fatalf("a missing config given explicitly: %v, want it said what to do, not the system's words", err)
	}
	if cfg, err := config.LoadConfig("", true); err != nil || len(cfg.Environments) != 0 {
		t.Fatalf("no path: %+v, %v", cfg, err)
	}
}

// TestLoadConfigSaysAMissingPathEscaped: a --config path that names no file
// is said back escaped: raw, its escape would act on the terminal (red
// text, a cleared screen) and a bidi override would reorder the message.
func TestLoadConfigSaysAMissingPathEscaped(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "cfg\x1b[31m\u202ered.toml")
	_, err := config.LoadConfig(missing, true)
	if err == nil || strings.ContainsAny(err.Error(), "\x1b\u202e") || !strings.Contains(err.Error(), safetext.Shown(missing)+" does not exist") {
		t.Fatalf("a missing config holding an escape: %q", err)
	}
}

// TestLoadConfigRefuses: http:// except on loopback, unknown keys, missing
// or malformed fields; each error names the problem.
func TestLoadConfigRefuses(t *testing.T) {
	env := func(auth, extra string) string {
		return "[env.x]\nauth_url = \"" + auth + "\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n" + extra
	}
	cases := []struct {
		name, text, words string
	}{
		{"http on a public host", env("http://auth.example", ""), "use https"},
		{"http on a private address", env("http://10.0.0.1:8700", ""), "use https"},
		{"http on a name that starts like loopback", env("http://localhost.evil.example", ""), "use https"},
		{"http on a name that looks like an IP", env("http://127.0.0.1.nip.io", ""), "use https"},
		{"other scheme", env("ftp://auth.example", ""), "https"},
		{"relative URL", env("/auth", ""), "absolute"},
		{"empty URL", env("", ""), "missing"},
		{"chain id missing", "[env.x]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\n", "chain_id"},
		{"unknown key in an environment", env("https://a.example", "auth_urll = \"https://a.example\"\n"), "unknown key env.x.auth_urll; did you mean auth_url?"},
		{"unknown top-level key", "defaultenv = \"x\"\n" + env("https://a.example", ""), "unknown key defaultenv; did you mean default_env?"},
		{"name is not a key", env("https://a.example", "name = \"y\"\n"), "unknown key env.x.name"},
		{"not TOML", "[env.x\n", "config"},
		{"wrong type", "[env.x]\nchain_id = \"327\"\n", "config"},
		{"bridge address not an address", env("https://a.example", "bridge_funding_address = \"0xabc\"\n"), "bridge_funding_address"},
		{"a theme not light or dark", "theme = \"blue\"\n" + env("https://a.example", ""), `theme must be light or dark, not "blue"`},
		// A value refused for what it holds shows it escaped: cleaned,
		// "light" with a zero-width space read "not \"light\"".
		{"a theme with a zero-width space", "theme = \"light\u200b\"\n" + env("https://a.example", ""), `theme must be light or dark, not "light\u200b"`},
		{"a sign_timeout with a zero-width space", env("https://a.example", "sign_timeout = \"5m\u200b\"\n"), `sign_timeout "5m\u200b": use a duration`},
		{"an account with a look-alike letter", env("https://a.example", "account = \"0x12\u0430\"\n"), `account "0x12\u0430" is not an address`},
		{"a cookie_name with a zero-width space", env("https://a.example", "cookie_name = \"svc\u200b\"\n"), `cookie_name "svc\u200b": use at most`},
		{"a bridge address with a bidi override", env("https://a.example", "bridge_funding_address = \"0xabc\u202e\"\n"), `bridge_funding_address "0xabc\u202e" is not an EVM address`},
		// A key is shown escaped: a bidi override would reorder the line, an
		// escape act on the terminal (TOML allows both in a quoted key).
		{"an unknown key holding a bidi override", "\"\u202eabc\" = 1\n" + env("https://a.example", ""), `unknown key "\u202eabc"`},
		{"an unknown environment key holding an escape", env("https://a.example", "\"\\u001b]2;x\\u0007\" = 1\n"), `unknown key env.x."\x1b]2;x\a"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := config.LoadConfig(writeConfig(t, c.text), true)
			if err == nil || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("error %v, want one containing %q", err, c.words)
			}
		})
	}
	// A key close to none is not given a guess.
	_, err := config.LoadConfig(writeConfig(t, env("https://a.example", "colour = \"red\"\n")), true)
	if err == nil || !strings.HasSuffix(err.Error(), "unknown key env.x.colour") {
		t.Fatalf("error %v, want it to end with the key", err)
	}
}

// TestEnvironmentLoopback: http:// is fine on every loopback form, and the
// built-in sandbox environment validates.
func TestEnvironmentLoopback(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:1", "http://127.0.0.2", "http://localhost:8700", "http://[::1]:9", "https://api.example", "HTTPS://api.example"} {
		e := config.Environment{Name: "t", AuthURL: u, BaseURL: u, MarketDataURL: u, ChainID: 1}
		if err := e.Validate(); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
	sb := config.SandboxEnvironment("http://127.0.0.1:8700", 327)
	if err := sb.Validate(); err != nil || sb.Name != config.SandboxEnv || sb.Domain().ChainID != 327 {
		t.Fatalf("sandbox environment %+v: %v", sb, err)
	}
}

// TestLoadConfigFollowRateAndBell: follow_rate (per environment) and bell
// (for the console) are read; an environment without follow_rate gets the default.
func TestLoadConfigFollowRateAndBell(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	body := "bell = true\n[env.a]\nauth_url = \"https://a.example\"\nbase_url = \"https://a.example\"\nmarket_data_url = \"https://a.example\"\nchain_id = 326\nfollow_rate = 2\n" +
		"[env.b]\nauth_url = \"https://b.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://b.example\"\nchain_id = 326\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.LoadConfig(path, true)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := cfg.Lookup("a")
	b, _ := cfg.Lookup("b")
	if !cfg.Bell || a.EffectiveFollowRate() != 2 || b.EffectiveFollowRate() != config.DefaultFollowRate {
		t.Fatalf("bell %v, follow rates %d and %d", cfg.Bell, a.EffectiveFollowRate(), b.EffectiveFollowRate())
	}
}

// TestLoadConfigKeySources: signer, account, sign_command and sign_timeout
// are read per environment and checked at load, so a wrong one stops
// before anything is asked; a key in sign_command is refused unrepeated.
func TestLoadConfigKeySources(t *testing.T) {
	const env = "[env.t]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 326\n"
	cfg, err := config.LoadConfig(writeConfig(t, env+`signer = "command"
account = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
sign_command = "cast wallet sign --ledger --data --from-file {file}"
sign_timeout = "90s"
`), true)
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Environments["t"]
	if e.Signer != "command" || e.Account != "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266" || e.SignWait() != 90*time.Second ||
		!strings.HasPrefix(e.SignCommand, "cast wallet sign") {
		t.Fatalf("%+v", e)
	}
	if (config.Environment{}).SignWait() != signer.DefaultWait {
		t.Fatal("no sign_timeout is not the default wait")
	}
	key := strings.Repeat("ab", 32)
	for _, tc := range []struct{ line, says string }{
		{`signer = "ledger"`, `signer: unknown key source "ledger"`},
		{`signer = "clef:http://10.1.1.1:8550"`, "use https for another host"},
		{`account = "0x12"`, "account \"0x12\" is not an address"},
		{`sign_command = "cast wallet sign --private-key ` + key + ` --data {file}"`, "shape of a private key"},
		{`sign_command = "sign 'unclosed"`, "is not closed"},
		{`sign_timeout = "forever"`, "sign_timeout"},
		{`sign_timeout = "2h"`, "from 1s to 1h0m0s"},
	} {
		_, err := config.LoadConfig(writeConfig(t, env+tc.line+"\n"), true)
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), key[:16]) {
			t.Errorf("%s: %v, want %q", tc.line, err, tc.says)
		}
	}
}

// TestLoadConfigRefusesSandboxName: a config's environment named sandbox
// would be taken for the embedded sandbox (Environment.Embedded): its
// reviews would say nothing real moves while signing for its real host,
// and its withdrawals would be told apart by name alone. env add refuses
// the name; a config written by hand must too.
func TestLoadConfigRefusesSandboxName(t *testing.T) {
	text := "[env.sandbox]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 325\n"
	cfg, err := config.LoadConfig(writeConfig(t, text), true)
	if err == nil {
		e, _ := cfg.Lookup(config.SandboxEnv)
		t.Fatalf("a config environment named sandbox was read (embedded %v, at %s)", e.Embedded(), e.BaseURL)
	}
	if !strings.Contains(err.Error(), "embedded sandbox") || !strings.Contains(err.Error(), "rename the table") {
		t.Fatalf("error %v, want it to say the name is the embedded sandbox's and what to do", err)
	}
}
