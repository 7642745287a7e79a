package signer

import (
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// argSecretOptions are the options, after their "--", by which a signing program takes a key,
// a recovery phrase or a keystore's password as an argument (cast's and
// most wallets' names): CheckSignCommand refuses a key written in the
// line, but one a shell puts there ("$PK", $(cat key)) is in the process
// list all the same.
var argSecretOptions = []string{"private-key", "private-keys", "mnemonic", "mnemonics", "mnemonic-passphrase", "password", "unsafe-password"}

// ArgumentSecret names the option by which line gives its program a key,
// a recovery phrase or a password on the command line, where every user
// of the machine reads it with ps for as long as it runs, as
// `cast wallet sign --private-key "$PK"`, or "" when it gives none. A word
// of a shell's script (sh -c '…') is looked into too. The value is never
// returned.
func ArgumentSecret(line string) string {
	words, err := SplitCommand(line)
	if err != nil {
		return ""
	}
	for _, w := range words {
		for _, f := range strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune(" \t\n\r'\";|&()", r) }) {
			opt, _, _ := strings.Cut(f, "=")
			for _, o := range argSecretOptions {
				if opt == "--"+o {
					return opt
				}
			}
		}
	}
	return ""
}

// ArgumentSecretFix is the safe spelling of a signing command that gave
// its program a secret as an argument (ArgumentSecretWords).
const ArgumentSecretFix = "let the program read it itself, from a keystore or a device (cast wallet sign --keystore FILE, which asks for its password, or --ledger), or from an environment set for it alone (docs/keys.md, \"A key kept out of the process list\")"

// ArgumentSecretWords say what ArgumentSecret found in line, naming the
// program (escaped) and the option, never its value; "" when it found
// nothing.
func ArgumentSecretWords(line string) string {
	opt := ArgumentSecret(line)
	if opt == "" {
		return ""
	}
	words, _ := SplitCommand(line)
	return fmt.Sprintf("the signing command, which runs %s, gives %s on a command line, which every user of this machine can read (ps) while it runs", safetext.Shown(words[0]), opt)
}
