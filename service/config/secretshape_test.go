package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestConfigRefusalNeverRepeatsAKey: a private key written in the config
// (the sandbox's demo key here), as a number, a string, a key's name, a
// value an environment's check refuses or an environment's name, is
// refused without repeating it: the TOML parser's words quoted it whole
// (`0xac09…ff80 is out of range for int64`), and every command and doctor,
// whose report is pasted into tickets, said them. At most 8 of its digits
// in a row are said, as of anything typed (safetext.Quoted).
func TestConfigRefusalNeverRepeatsAKey(t *testing.T) {
	const key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	env := "[env.x]\nauth_url = \"https://a.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n"
	for _, tc := range []struct{ name, text, says string }{
		{"a number at the top", "private_key = 0x" + key + "\n" + env, "line 1"},
		{"a number in an environment", env + "private_key = 0x" + key + "\n", "line 6"},
		{"a number without 0x", env + "private_key = 1" + key[1:] + "\n", "line 6"},
		{"a key's name", env + key + " = 1\n", "unknown key"},
		{"the theme", "theme = \"0x" + key + "\"\n", "theme must be light or dark"},
		// What an environment's own checks refuse, as they read it.
		{"the bridge funding address", env + "bridge_funding_address = \"0x" + key + "\"\n", "not an EVM address"},
		{"the domain name", env + "domain_name = \"0x" + key + "\"\n", "domain_name"},
		{"an environment's name", strings.Replace(env, "[env.x]", "[env.0x"+key+"]", 1), "environment name"},
	} {
		_, err := config.LoadConfig(writeConfig(t, tc.text), true)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: error %v, want it saying %q", tc.name, err, tc.says)
			continue
		}
		for i := 0; i+9 <= len(key); i++ {
			if strings.Contains(err.Error(), key[i:i+9]) {
				t.Errorf("%s: the refusal repeats more than 8 digits of the key: %v", tc.name, err)
				break
			}
		}
	}
}

// TestConfigPathOfAKeyShapeNotRepeated: a config path holding a private
// key's shape ($SVCWALLET_CONFIG set to the key meant for
// $SVCWALLET_PRIVATE_KEY), a recovery phrase's (numbered too) or an
// extended private key's is refused without repeating it, by an edit
// before it makes the path's folder, and named so where a message names
// the config (ShownPath): every refusal said "config KEY does not exist",
// and doctor "config legal winner … does not exist".
func TestConfigPathOfAKeyShapeNotRepeated(t *testing.T) {
	const key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	const phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
	const xprv = "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"
	dir := t.TempDir()
	for path, says := range map[string]string{
		key:                            "shape of a private key",
		"/tmp/0x" + key + ".toml":      "shape of a private key",
		phrase:                         "recovery phrase",
		dir + "/" + phrase + "/c.toml": "recovery phrase",
		"/tmp/1. legal 2. winner 3. thank 4. year 5. wave 6. sausage 7. worth 8. useful 9. legal 10. winner 11. thank 12. yellow": "recovery phrase",
		dir + "/" + xprv + ".toml": "extended private key",
	} {
		_, err := config.LoadConfig(path, true)
		if err == nil || strings.Contains(err.Error(), key[:9]) || strings.Contains(err.Error(), "sausage") || strings.Contains(err.Error(), xprv[4:12]) || !strings.Contains(err.Error(), says) {
			t.Errorf("LoadConfig(%.12q…): %v, want it refused without it", path, err)
		}
		// Within dir, which stays empty: a folder made or a file written
		// is named by the secret.
		edited := path
		if !strings.HasPrefix(path, dir) {
			edited = filepath.Join(dir, filepath.Base(path))
		}
		if _, err := config.AddEnvironment(edited, config.Environment{Name: "x", AuthURL: "https://a.example", BaseURL: "https://b.example", MarketDataURL: "https://m.example", ChainID: 1}, false); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("AddEnvironment(%.12q…): %v, want it refused", path, err)
		}
		if shown := config.ShownPath(path); strings.Contains(shown, key[:9]) || strings.Contains(shown, "sausage") || strings.Contains(shown, xprv[4:12]) {
			t.Errorf("ShownPath(%.12q…) = %q", path, shown)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("an edit made %d entries named by a secret", len(entries))
	}
	if shown := config.ShownPath("/tmp/c\x1b[2J.toml"); shown != `"/tmp/c\x1b[2J.toml"` {
		t.Errorf("ShownPath of another path = %s, want it as safetext.Shown says it", shown)
	}
}
