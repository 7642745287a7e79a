package cli

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestEnvAddTakenNamesWhatTakesItOut: a name taken by the config is said
// with the env remove that takes the config's one out (the one it
// differs from in case, when it does); sandbox, in any case, is said with
// none: env remove takes no sandbox, and the hint named a command that
// refuses it.
func TestEnvAddTakenNamesWhatTakesItOut(t *testing.T) {
	w, srv := newAuthWorld(t, sandbox.Options{}) // its config names local
	// The config named by --config is repeated: without it, env remove
	// edits another config.
	for name, hint := range map[string]string{"Local": "svcwallet env remove local --config " + w.config + " takes it out", "sandbox": "", "Sandbox": ""} {
		r := w.run("", nil, "env", "add", name, "--base-url", srv.URL, "--chain-id", "327", "--alias")
		if r.code != exitUsage || hint != "" && !strings.Contains(r.stderr, hint) || hint == "" && strings.Contains(r.stderr, "env remove") {
			t.Errorf("env add %s: exit %d\n%s", name, r.code, r.stderr)
		}
	}
}
