package config_test

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestLoadConfigRefusesHostsThatReadOtherwise: a host holding a look-alike
// letter, an invisible character or a bidi override, or a port that is no
// port, is refused at load, so no review names a base URL that reads as
// another host; the refusal names the character without writing it raw.
// A query or fragment, which would swallow the endpoints' paths, is refused.
// A host in another script is refused with its xn-- form (not converted
// silently: a look-alike would load). A host in its xn-- form and IP
// literals load.
func TestLoadConfigRefusesHostsThatReadOtherwise(t *testing.T) {
	env := func(base string) string {
		return "[env.x]\nauth_url = \"https://a.example\"\nbase_url = \"" + base + "\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n"
	}
	for _, tc := range []struct{ name, base, words string }{
		{"a Cyrillic look-alike", "https://api.ex\u0430mple.com", "the host holds U+0430 at position 7, which no host name holds: write it in its xn-- form, api.xn--exmple-4nf.com"},
		{"a zero-width space", "https://api.exa\u200bmple.com", "the host holds U+200B at position 8"},
		{"a bidi override", "https://moc.\u202eelpmaxe.com", "the host holds U+202E at position 5"},
		{"a fullwidth dot", "https://api\uff0eexample.com", "U+FF0E"},
		// Printable ASCII as written, a look-alike once decoded: the host
		// is dialled, and named by env list, decoded.
		{"a percent-encoded look-alike", "https://api.ex%D0%B0mple.com", "the host holds U+0430 at position 7, which no host name holds: write it in its xn-- form, api.xn--exmple-4nf.com"},
		{"a percent-encoded override", "https://api.example.com%E2%80%AE", "the host holds U+202E at position 16"},
		{"a sign in an IPv6 zone", "https://[fe80::1%25e!x]:8443", "the host holds U+0021 at position 10"},
		{"port 0", "https://api.example.com:0", "port 0 is no port"},
		{"a port above 65535", "https://api.example.com:99999", "port 99999 is no port"},
		{"a bidi override in the path", "https://api.example.com/\u202ev1", "holds U+202E at position 25"},
		{"a space in the path", "https://api.example.com/v 1", "holds U+0020 at position 26"},
		{"a query", "https://api.example.com/?x=", "a query or fragment"},
		{"an empty query", "https://api.example.com/v1?", "a query or fragment"},
		{"a fragment", "https://api.example.com#", "a query or fragment"},
		{"a look-alike in the path", "https://api.example.com/v\u0430", "holds U+0430 at position 26"},
		// A 1 MiB config's host is refused in words that fit a screen.
		{"an overlong host", "https://" + strings.Repeat("\u4e00", 100000), "longer than any host name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.LoadConfig(writeConfig(t, env(tc.base)), true)
			if err != nil && len(err.Error()) > 1000 {
				t.Fatalf("a refusal of %d bytes: %.300s", len(err.Error()), err)
			}
			if err == nil || !strings.Contains(err.Error(), "base_url") || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("error %v, want base_url refused with %q", err, tc.words)
			}
			// What the URL holds beyond printable ASCII is named, never
			// written: a look-alike written raw makes the refusal name the
			// host it imitates.
			if strings.ContainsFunc(err.Error(), func(r rune) bool { return r < ' ' || r > '~' && strings.ContainsRune(tc.base, r) }) {
				t.Fatalf("the refusal writes the URL's own characters raw: %q", err)
			}
		})
	}
	for _, base := range []string{"https://xn--80ak6aa92e.com", "https://api.example.com:443", "https://[2001:db8::1]:8443", "https://[fe80::1%25en0]:8443", "https://192.0.2.1", "https://my_host.example"} {
		if _, err := config.LoadConfig(writeConfig(t, env(base)), true); err != nil {
			t.Errorf("%s refused: %v", base, err)
		}
	}
}

// TestExplorerLinkOnALookalikeHost: an explorer_tx template whose host
// reads as another gives no link, as a non-https one does.
func TestExplorerLinkOnALookalikeHost(t *testing.T) {
	e := config.Environment{Name: "x", ChainID: 1, ExplorerTx: map[string]string{
		"BASE": "https://bas\u0435scan.org/tx/{hash}", "BSC": "https://bscscan.com/tx/{hash}"}}
	if link := e.ExplorerTxURL("BASE", "0xab"); link != "" {
		t.Fatalf("look-alike explorer host linked: %q", link)
	}
	if link := e.ExplorerTxURL("BSC", "0xab"); link != "https://bscscan.com/tx/0xab" {
		t.Fatalf("plain explorer host: %q", link)
	}
}

// TestLoadConfigRefusesNamesThatDifferInCaseAlone: a hand-written config
// is held to what env add refuses: two environments whose names differ in
// case alone, or one named sandbox in another case.
func TestLoadConfigRefusesNamesThatDifferInCaseAlone(t *testing.T) {
	env := func(name string) string {
		return "[env." + name + "]\nauth_url = \"https://a.example\"\nbase_url = \"https://" + strings.ToLower(name) + ".example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 325\n"
	}
	for _, tc := range []struct{ name, text, words string }{
		{"two names", env("prod") + env("Prod"), "[env.Prod] and [env.prod] differ in case alone"},
		{"sandbox in capitals", env("Sandbox"), "[env.Sandbox]: Sandbox differs from sandbox, the embedded sandbox's name, in case alone"},
		{"sandbox upper case", env("SANDBOX"), "SANDBOX differs from sandbox"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.LoadConfig(writeConfig(t, tc.text), true)
			if err == nil || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("error %v, want %q", err, tc.words)
			}
		})
	}
	if _, err := config.LoadConfig(writeConfig(t, env("prod")+env("testnet")+env("sandbox-eu")), true); err != nil {
		t.Fatalf("names apart refused: %v", err)
	}
}

// TestExplorerLinkIsPrintableASCII: an explorer_tx template holding a bidi
// override, a space or another character than printable ASCII is refused
// at load, naming it, and gives no link where it was not loaded (status
// printed "…#<U+202E>exe.txt" raw, reordering its line).
func TestExplorerLinkIsPrintableASCII(t *testing.T) {
	env := func(tmpl string) string {
		return "[env.x]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n[env.x.explorer_tx]\nARBITRUM = \"" + tmpl + "\"\n"
	}
	for _, tc := range []struct{ name, tmpl, words string }{
		{"a bidi override", "https://arbiscan.io/tx/{hash}#\u202eexe.txt", "U+202E at position 31"},
		{"a space", "https://arbiscan.io/tx/{hash} x", "U+0020"},
		{"a letter in another script", "https://arbiscan.io/tx/{hash}?n=\u0430", "U+0430"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.LoadConfig(writeConfig(t, env(tc.tmpl)), true)
			if err == nil || !strings.Contains(err.Error(), "explorer_tx") || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("error %v, want explorer_tx refused with %q", err, tc.words)
			}
			if strings.Contains(err.Error(), "\u202e") || strings.Contains(err.Error(), "%E2%80%AE") {
				t.Fatalf("the refusal writes the override raw, or how to keep it: %q", err)
			}
			e := config.Environment{Name: "x", ChainID: 1, ExplorerTx: map[string]string{"ARBITRUM": tc.tmpl}}
			if link := e.ExplorerTxURL("ARBITRUM", "0xab"); link != "" {
				t.Fatalf("linked %q", link)
			}
		})
	}
	if _, err := config.LoadConfig(writeConfig(t, env("https://tronscan.org/#/transaction/{hash}?a=%E2%80%AE")), true); err != nil {
		t.Fatalf("a percent-encoded link refused: %v", err)
	}
}

// TestExplorerChainNamesChecked: the chain an explorer_tx link is for is
// held to a chain's name (letters, digits and _), as every chain name the
// service gives is: it went unchecked into `--chain`'s completions, escape
// sequences and all (zsh and fish show them escaped); the refusal writes it
// escaped.
func TestExplorerChainNamesChecked(t *testing.T) {
	env := func(chain string) string {
		return "[env.x]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n[env.x.explorer_tx]\n\"" + chain + "\" = \"https://arbiscan.io/tx/{hash}\"\n"
	}
	for _, chain := range []string{`X\u001b]52;c;MHhkZWFk\u0007`, `BASE$(touch pwned)`, `ARB\u202eMUTIBRA`, `ARB ITRUM`, "", strings.Repeat("A", 65)} {
		_, err := config.LoadConfig(writeConfig(t, env(chain)), true)
		if err == nil || !strings.Contains(err.Error(), "explorer_tx") || !strings.Contains(err.Error(), "letters, digits and _") {
			t.Fatalf("explorer_tx for %q: error %v, want the chain's name refused", chain, err)
		}
		if strings.ContainsAny(err.Error(), "\x1b\u202e\a") || strings.HasPrefix(chain, "X") && !strings.Contains(err.Error(), `"X\x1b]52;c;MHhkZWFk\a"`) {
			t.Fatalf("the refusal writes the name raw, or not as the file holds it: %q", err)
		}
	}
	for _, chain := range []string{"ARBITRUM", "base_sepolia", "Chain2"} {
		if _, err := config.LoadConfig(writeConfig(t, env(chain)), true); err != nil {
			t.Fatalf("explorer_tx for %s refused: %v", chain, err)
		}
	}
	// Two links for one chain, its name in two cases: which one a payout
	// got was the map's order, another at each run.
	twice := env("ARBITRUM") + "arbitrum = \"https://evil.example/tx/{hash}\"\n"
	if _, err := config.LoadConfig(writeConfig(t, twice), true); err == nil || !strings.Contains(err.Error(), `explorer_tx names the chain "arbitrum" twice`) {
		t.Fatalf("two links for one chain: error %v, want them refused", err)
	}
}

// TestURLRefusalNamesBaseURLFirst: one bad URL in all three hosts (env add
// copies base_url into the others) is refused naming base_url, every time
// (the three were checked in a map's order).
func TestURLRefusalNamesBaseURLFirst(t *testing.T) {
	const bad = "https://api.ex\u0430mple.com"
	e := config.Environment{Name: "x", ChainID: 1, AuthURL: bad, BaseURL: bad, MarketDataURL: bad}
	for range 20 {
		if err := e.Validate(); err == nil || !strings.Contains(err.Error(), `environment "x": base_url: `) {
			t.Fatalf("error %v, want base_url named", err)
		}
	}
}

// TestChainIDKeptExactInJSON: a chain id above 2^53 - 1, which the typed
// data and --json write as a number a float rounds, is refused at load.
func TestChainIDKeptExactInJSON(t *testing.T) {
	env := func(id string) string {
		return "[env.x]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = " + id + "\n"
	}
	if _, err := config.LoadConfig(writeConfig(t, env("9007199254740993")), true); err == nil || !strings.Contains(err.Error(), "chain_id 9007199254740993 is above 9007199254740991") || !strings.Contains(err.Error(), "give the one the deployment names") {
		t.Fatalf("2^53 + 1: %v", err)
	}
	if _, err := config.LoadConfig(writeConfig(t, env("9007199254740991")), true); err != nil {
		t.Fatalf("2^53 - 1 refused: %v", err)
	}
}
