package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestEnvAddChecksEachAnswer: env add on a terminal checks each answer as
// it is typed, says why one is refused and asks it again, never repeating
// a key pasted at the wrong question; an empty answer takes the default.
func TestEnvAddChecksEachAnswer(t *testing.T) {
	key := strings.Repeat("ab", 32)
	in := strings.Join([]string{key, "ftp://example.com", "http://127.0.0.1:8700", "", "327", "http://127.0.0.1:8701", "abc", "0", "9007199254740993", "327"}, "\n") + "\n"
	var errOut bytes.Buffer
	a := newApp(CLIEnv{Stdin: strings.NewReader(in), Stderr: &errOut, Getenv: func(string) string { return "" }})
	var e config.Environment
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
		"Not accepted: \"0\" is not a chain id",
		"Not accepted: chain id 9007199254740993 is above 9007199254740991, the largest a JSON reader keeps exact",
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
	var e config.Environment
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
