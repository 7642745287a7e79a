package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestBadlyShapedKeyVarOneExit: a badly shaped $SVCWALLET_API_KEY is an
// API key refused, unsent: a failed login (5, code login) said the same by
// auth login as by every command that logs in with it. It is no usage
// error of the command line typed: auth login exited 2 for it, the others 5.
func TestBadlyShapedKeyVarOneExit(t *testing.T) {
	w, _ := newAuthWorld(t, sandbox.Options{})
	bad := map[string]string{"SVCWALLET_API_KEY": "sk-live 7f3a"}
	const says = "login to environment local failed: the API key in $SVCWALLET_API_KEY holds a space at position 8"
	for _, args := range [][]string{{"auth", "login"}, {"status", "q-none"}, {"deposit"}} {
		r := w.run("", bad, args...)
		if r.code != exitError || !strings.Contains(r.stderr, says) || strings.Contains(r.stderr, "7f3a") {
			t.Errorf("%s: exit %d, want 5 saying %q, the key unshown\n%s", strings.Join(args, " "), r.code, says, r.stderr)
		}
	}
	blank := map[string]string{"SVCWALLET_API_KEY": "   "}
	for _, args := range [][]string{{"auth", "login"}, {"status", "q-none"}} {
		if r := w.run("", blank, args...); r.code != exitError {
			t.Errorf("%s with a blank variable: exit %d, want 5\n%s", strings.Join(args, " "), r.code, r.stderr)
		}
	}
	if r := w.run("", bad, "auth", "login", "--json"); !strings.Contains(r.stdout+r.stderr, `"code":"login"`) {
		t.Errorf("auth login --json: not the login's code\n%s%s", r.stdout, r.stderr)
	}
}
