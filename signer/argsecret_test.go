package signer

import (
	"strings"
	"testing"
)

// A key, a recovery phrase or a password a signing command gives its
// program as an argument is named by its option, never by its value.
func TestArgumentSecret(t *testing.T) {
	for line, want := range map[string]string{
		`cast wallet sign --private-key "$PK" --data --from-file {file}`:                "--private-key",
		`cast wallet sign --private-key=$PK --data --from-file {file}`:                  "--private-key",
		`sh -c 'cast wallet sign --private-key "$(cat ~/k)" --data --from-file {file}'`: "--private-key",
		`cast wallet sign --mnemonic ~/words --data --from-file {file}`:                 "--mnemonic",
		`cast wallet sign --keystore k.json --password hunter2 --data {file}`:           "--password",
		`cast wallet sign --ledger --data --from-file {file}`:                           "",
		`cast wallet sign --keystore k.json --password-file pw --data {file}`:           "",
		`signer-tool --private-key-file k --data {file}`:                                "",
	} {
		if got := ArgumentSecret(line); got != want {
			t.Errorf("ArgumentSecret(%s) = %q, want %q", line, got, want)
		}
	}
	words := ArgumentSecretWords(`cast wallet sign --password hunter2 --data {file}`)
	if !strings.Contains(words, "runs cast, gives --password") || strings.Contains(words, "hunter2") {
		t.Errorf("the words name the program and option, never the value: %s", words)
	}
	if ArgumentSecretWords(`cast wallet sign --ledger --data {file}`) != "" {
		t.Error("a command that gives no secret as an argument has no words")
	}
}
