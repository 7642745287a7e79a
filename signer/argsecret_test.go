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
		`cast wallet sign --mnemonic-path "$WORDS" --mnemonic-passphrases x {file}`:     "--mnemonic-path",
		`cast wallet sign --mnemonics ~/w --mnemonic-passphrases "$P" --data {file}`:    "--mnemonics",
		`cast wallet sign --mnemonic-passphrases "$P" --data {file}`:                    "--mnemonic-passphrases",
		`cast wallet sign -i --data --from-file {file}`:                                 "",
		`cast wallet sign --ledger --data --from-file {file}`:                           "",
		`cast wallet sign --keystore k.json --password-file pw --data {file}`:           "",
		`signer-tool --private-key-file k --data {file}`:                                "",
	} {
		words, err := SplitCommand(line)
		if got := argumentSecret(words); err != nil || got != want {
			t.Errorf("argumentSecret(%s) = %q (%v), want %q", line, got, err, want)
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

// TestArgumentWarningDueOnce: the warning of a signing command's secret
// in its arguments is due once a run, for the first command key that
// gives one, never for a key that is no signing command nor for one that
// gives none.
func TestArgumentWarningDueOnce(t *testing.T) {
	var w ArgumentWarning
	hexKey, _ := freshKeyHex(t)
	raw, err := ParsePrivateKeyHex(hexKey)
	if err != nil {
		t.Fatal(err)
	}
	quiet := NewCommandKey(raw.Address(), []string{"cast", "wallet", "sign", "--ledger", "{file}"}, nil, 0)
	leaky := NewCommandKey(raw.Address(), []string{"cast", "wallet", "sign", "--password", "pw-not-shown", "{file}"}, nil, 0)
	if got := w.Due(raw); got != "" {
		t.Errorf("a raw key: %q", got)
	}
	if got := w.Due(quiet); got != "" {
		t.Errorf("a command giving no secret: %q", got)
	}
	if got := w.Due(leaky); !strings.Contains(got, "runs cast, gives --password") || strings.Contains(got, "pw-not-shown") {
		t.Errorf("the first command giving a secret: %q", got)
	}
	if got := w.Due(leaky); got != "" {
		t.Errorf("said again: %q", got)
	}
}
