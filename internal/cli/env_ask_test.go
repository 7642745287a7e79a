package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestEnvAddChecksEachAnswer: env add on a terminal checks each answer as
// it is typed, says why one is refused and asks it again, never repeating
// a key pasted at the wrong question; an empty answer takes the default.
func TestEnvAddChecksEachAnswer(t *testing.T) {
	key := strings.Repeat("ab", 32)
	in := strings.Join([]string{key, "ftp://example.com", "http://127.0.0.1:8700", "", "327", "http://127.0.0.1:8701", "abc", "327\u200b", "0", "9007199254740993", "327"}, "\n") + "\n"
	var errOut bytes.Buffer
	a := newApp(CLIEnv{Stdin: strings.NewReader(in), Stderr: &errOut, Getenv: func(string) string { return "" }})
	a.configPath = filepath.Join(t.TempDir(), "config.toml")
	e := config.Environment{Name: "x"}
	if err := a.askEnv(context.Background(), &e); err != nil {
		t.Fatal(err)
	}
	if e.BaseURL != "http://127.0.0.1:8700" || e.AuthURL != e.BaseURL || e.MarketDataURL != "http://127.0.0.1:8701" || e.ChainID != 327 {
		t.Errorf("took %+v", e)
	}
	said := errOut.String()
	for _, want := range []string{
		"Base URL, the API host (https://…): Not accepted: that has a private key's shape; it is not repeated.\n",
		"Base URL, the API host (https://…): Not accepted: \"ftp://example.com\": scheme must be https.\n",
		"Market-data URL, the host of /time [http://127.0.0.1:8700]: Not accepted: \"327\" is not an absolute URL.\n",
		"Not accepted: \"abc\" is not a chain id: a whole number such as 327.\n",
		// Escaped: cleaned, it read "327" is not a chain id.
		"Not accepted: \"327\\u200b\" is not a chain id",
		"Not accepted: \"0\" is not a chain id",
		"Not accepted: chain id 9007199254740993 is above 9007199254740991, the largest a JSON reader keeps exact", "(325 production, 326 testnet, 327 staging).\n",
	} {
		if !strings.Contains(said, want) {
			t.Errorf("no %q in:\n%s", want, said)
		}
	}
	if strings.Contains(said, key[:20]) {
		t.Errorf("the key is repeated:\n%s", said)
	}
}

// TestEnvAddAsksAgainWithoutADefault: an empty answer to a question that
// shows no default (the base URL, the chain id) asks it again; it was
// taken as nothing, every other question asked, then refused as a usage
// error saying to give --base-url.
func TestEnvAddAsksAgainWithoutADefault(t *testing.T) {
	in := strings.Join([]string{"", "http://127.0.0.1:8700", "", "", "", "327"}, "\n") + "\n"
	var errOut bytes.Buffer
	a := newApp(CLIEnv{Stdin: strings.NewReader(in), Stderr: &errOut, Getenv: func(string) string { return "" }})
	a.configPath = filepath.Join(t.TempDir(), "config.toml")
	e := config.Environment{Name: "x"}
	if err := a.askEnv(context.Background(), &e); err != nil {
		t.Fatal(err)
	}
	if e.BaseURL != "http://127.0.0.1:8700" || e.AuthURL != e.BaseURL || e.MarketDataURL != e.BaseURL || e.ChainID != 327 {
		t.Errorf("took %+v", e)
	}
	const base, chain = "Base URL, the API host (https://…): ", "Chain id (325 production, 326 testnet, 327 staging): "
	if said := errOut.String(); !strings.HasPrefix(said, base+base+"Auth URL") || !strings.HasSuffix(said, chain+chain) {
		t.Errorf("an empty answer without a default was not asked again:\n%s", said)
	}
}

// TestEnvAddRefusesATakenNameBeforeAsking: a name the config has (or one
// in another case, or sandbox) is refused before the first question, as
// env add refuses it at the end: four answers were asked for nothing.
func TestEnvAddRefusesATakenNameBeforeAsking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte("[env.local]\nbase_url = \"http://127.0.0.1:8700\"\nauth_url = \"http://127.0.0.1:8700\"\nmarket_data_url = \"http://127.0.0.1:8700\"\nchain_id = 327\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"local":   "the config already names an environment local (svcwallet env remove local --config " + path + " takes it out)",
		"Local":   "which Local differs from in case alone",
		"sandbox": "sandbox names the embedded sandbox",
		"a b":     "environment name \"a b\": use 1 to",
	} {
		var errOut bytes.Buffer
		a := newApp(CLIEnv{Stdin: strings.NewReader("http://127.0.0.1:8701\n\n\n327\n"), Stderr: &errOut, Getenv: func(string) string { return "" }})
		a.configPath = path
		err := a.askEnv(context.Background(), &config.Environment{Name: name})
		if err == nil || !strings.Contains(err.Error(), want) || errOut.Len() != 0 {
			t.Errorf("%s: %v, want %q and no question; asked:\n%s", name, err, want, errOut.String())
		}
	}
}
