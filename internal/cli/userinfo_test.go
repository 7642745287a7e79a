package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorHidesURLPassword: a config URL with a password is a config
// warning that does not show the password.
func TestDoctorHidesURLPassword(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	cfg := "[env.x]\nauth_url = \"https://user:pass@auth.example\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n"
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	code, rep, out := doctor(t, nil, noTmux, "--config", path)
	if w := rep.warning("config"); code != 1 || w == nil || !strings.Contains(w.Detail, "holds a user name or password") {
		t.Fatalf("exit %d, want a config warning:\n%s", code, out)
	}
	// The refusal's own words say "password"; nothing else may.
	if strings.Contains(strings.ReplaceAll(out, "user name or password", ""), "pass") {
		t.Fatalf("the report shows the password:\n%s", out)
	}
}
