package signer

import (
	"fmt"
	"strings"
	"sync"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// argSecretOptions are the options, after their "--", by which a signing program takes a key,
// a recovery phrase or a keystore's password as an argument: cast's, the
// one EIP-712 signer of these that takes them (with their aliases; none is
// short); clef asks on its terminal, and ethers' CLI signs no typed data.
// CheckSignCommand refuses a key written in the line, but one a shell puts
// there ("$PK", $(cat key)) is in the process list all the same.
var argSecretOptions = []string{"private-key", "private-keys", "mnemonic", "mnemonics", "mnemonic-path", "mnemonic-paths", "mnemonic-passphrase", "mnemonic-passphrases", "password", "unsafe-password"}

// argumentSecret names the option by which a signing command's words give
// its program a key, a recovery phrase or a password on the command line,
// where every user of the machine reads it with ps for as long as it runs,
// as `cast wallet sign --private-key "$PK"`, or "" when they give none. A
// word of a shell's script (sh -c '…') is looked into too. The value is
// never returned.
func argumentSecret(words []string) string {
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

// ArgumentSecretWords say what argumentSecret found in line, naming the
// program (escaped) and the option, never its value; "" when it found
// nothing.
func ArgumentSecretWords(line string) string {
	words, err := SplitCommand(line)
	if err != nil {
		return ""
	}
	return argumentSecretWords(words)
}

// argumentSecretWords is ArgumentSecretWords of a line split into words.
func argumentSecretWords(words []string) string {
	opt := argumentSecret(words)
	if opt == "" {
		return ""
	}
	return fmt.Sprintf("the signing command, which runs %s, gives %s on a command line, which every user of this machine can read (ps) while it runs", safetext.Shown(words[0]), opt)
}

// ArgumentSecretBrief is argumentSecretWords of k in fewer words, for a
// narrow screen: the option, not the program; "" when k, not a signing
// command, or its words give no secret as an argument.
func ArgumentSecretBrief(k Key) string {
	c, ok := k.(*CommandKey)
	if !ok {
		return ""
	}
	if opt := argumentSecret(c.words); opt != "" {
		return "the signing command gives " + opt + " on a command line any user here can read (ps)"
	}
	return ""
}

// ArgumentWarning is the rule of a run's warning of a signing command
// that gives its program a secret as an argument: said once a run, before
// its first signature, however many times a key of it is readied. Each
// face keeps one a run and words what Due gives. The zero value is ready.
type ArgumentWarning struct {
	mu   sync.Mutex
	said bool
}

// Due is the warning's words (ArgumentSecretWords) when k, about to sign,
// is a signing command giving its program a secret as an argument and none
// was said this run, which it now is; "" otherwise.
func (w *ArgumentWarning) Due(k Key) string {
	c, ok := k.(*CommandKey)
	if !ok {
		return ""
	}
	words := argumentSecretWords(c.words)
	w.mu.Lock()
	defer w.mu.Unlock()
	if words == "" || w.said {
		return ""
	}
	w.said = true
	return words
}
