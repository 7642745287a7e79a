package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/signer"
)

// TestDoctorWarnsOfASecretInSignCommandArgs: a signing command that gives
// its program a key or a password as an argument, in the config or in
// $SVCWALLET_SIGN_COMMAND, is a doctor warning naming the program and the
// option and the safe spelling, never the value.
func TestDoctorWarnsOfASecretInSignCommandArgs(t *testing.T) {
	cfg, _ := localConfig(t)
	b, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	leaky := string(b) + `sign_command = "sh -c 'cast wallet sign --private-key \"$(cat /k/hunter2)\" --data --from-file {file}'"` + "\n"
	if err := os.WriteFile(cfg, []byte(leaky), 0o600); err != nil {
		t.Fatal(err)
	}
	d := doctorCmd{tmuxOption: noTmux, goos: "linux", protect: func() error { return nil }}
	_, rep, out := doctorOn(t, d, t.TempDir(), map[string]string{signer.SignCommandEnvVar: "cast wallet sign --password hunter2 --data {file}"}, "--config", cfg)
	var seen []string
	for _, c := range rep.Checks {
		if c.Check == "signing command" && c.Status == "warning" && strings.Contains(c.Fix, "--keystore FILE") {
			seen = append(seen, c.Detail)
		}
	}
	if len(seen) != 2 || !strings.Contains(seen[0], "local's sign_command: the signing command, which runs sh, gives --private-key") ||
		!strings.Contains(seen[1], "$SVCWALLET_SIGN_COMMAND: the signing command, which runs cast, gives --password") {
		t.Errorf("want a warning for each command, with the option and the fix:\n%s", out)
	}
	if strings.Contains(out, "hunter2") {
		t.Errorf("the value is in doctor's report:\n%s", out)
	}
	_, rep, out = doctorOn(t, d, t.TempDir(), map[string]string{signer.SignCommandEnvVar: "cast wallet sign --ledger --data {file}"})
	if c := rep.check("signing command"); c == nil || c.Status != "ok" {
		t.Errorf("a command with no secret in its arguments is ok:\n%s", out)
	}
}
