package plain

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestSignCommandSecretArgWarnedOnce: a signing command that gives its
// program a password as an argument is warned of before it signs, once a
// session however often it is chosen, naming the option, never the value.
func TestSignCommandSecretArgWarnedOnce(t *testing.T) {
	r := newRigOn(t, func(url string) config.Environment {
		e := config.SandboxEnvironment(url, sandbox.DefaultChainID)
		e.Account, e.SignCommand = sandbox.DemoAddress, "/nonexistent/signer --password pw-not-shown {file}"
		return e
	})
	command := typed("Wallet signature", "signing command")
	out, err := r.run(steps(command, command, typed("Wallet signature", "sandbox demo key", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Warning: the signing command, which runs /nonexistent/signer, gives --password on a command line", "--keystore FILE")
	if n := strings.Count(out, "Warning: the signing command"); n != 1 || strings.Count(out, "Login failed") != 2 {
		t.Errorf("want one warning over two signings, got %d:\n%s", n, out)
	}
	if strings.Contains(out, "pw-not-shown") {
		t.Errorf("the password is shown:\n%s", out)
	}
}
