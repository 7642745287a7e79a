package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestEnvAddAsksAChainIDAboveExactAgain: a chain id above 2^53 - 1, which
// the config refuses at load, is refused as it is typed and asked again,
// not after every question was answered.
func TestEnvAddAsksAChainIDAboveExactAgain(t *testing.T) {
	in := strings.Join([]string{"http://127.0.0.1:8700", "", "", "9007199254740993", "327"}, "\n") + "\n"
	var errOut bytes.Buffer
	a := newApp(CLIEnv{Stdin: strings.NewReader(in), Stderr: &errOut, Getenv: func(string) string { return "" }})
	var e config.Environment
	if err := a.askEnv(context.Background(), &e); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	if e.ChainID != 327 {
		t.Errorf("took chain id %d, want the 327 typed after the refusal", e.ChainID)
	}
	if said := errOut.String(); !strings.Contains(said, "Not accepted: 9007199254740993 is above 9007199254740991, the largest a JSON reader keeps exact") {
		t.Errorf("the chain id's refusal:\n%s", said)
	}
}
