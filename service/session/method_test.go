package session

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLoginMethodRemembered: each environment's last method comes back,
// the others' kept; what is read back is one of the two methods of a file
// svcwallet wrote, else nothing (the login then opens as it would).
func TestLoginMethodRemembered(t *testing.T) {
	m := Methods{File: filepath.Join(t.TempDir(), "state", MethodsFile)}
	if got := m.Last("prod"); got != "" {
		t.Fatalf("no file: %q", got)
	}
	if err := m.Remember("prod", ByWallet); err != nil {
		t.Fatal(err)
	}
	if err := m.Remember("staging", ByAPIKey); err != nil {
		t.Fatal(err)
	}
	if got, other := m.Last("prod"), m.Last("staging"); got != ByWallet || other != ByAPIKey {
		t.Fatalf("read back %q and %q, want wallet and api_key", got, other)
	}
	if err := m.Remember("prod", ByAPIKey); err != nil || m.Last("prod") != ByAPIKey || m.Last("staging") != ByAPIKey {
		t.Fatalf("after prod's API key login: %q, %q (%v)", m.Last("prod"), m.Last("staging"), err)
	}
	for _, bad := range []struct{ env, method string }{{"prod", "password"}, {"prod\x1b[2J", "wallet"}, {"", "wallet"}} {
		if err := m.Remember(bad.env, Method(bad.method)); err == nil {
			t.Errorf("remembered %q for %q", bad.method, bad.env)
		}
	}
	for _, body := range []string{`{"prod":"password"}`, `{"prod":"wallet","x":1`, `["wallet"]`} {
		if err := os.WriteFile(m.File, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := m.Last("prod"); got != "" {
			t.Errorf("from %s: %q, want nothing", body, got)
		}
	}
	if runtime.GOOS != "windows" {
		real := filepath.Join(t.TempDir(), "elsewhere.json")
		if err := os.WriteFile(real, []byte(`{"prod":"wallet"}`), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Remove(m.File)
		if err := os.Symlink(real, m.File); err != nil {
			t.Fatal(err)
		}
		if got := m.Last("prod"); got != "" {
			t.Errorf("through a link: %q, want nothing", got)
		}
		if err := m.Remember("prod", ByAPIKey); err == nil {
			t.Error("wrote through a link")
		}
	}
	if err := (Methods{}).Remember("prod", ByWallet); err != nil || (Methods{}).Last("prod") != "" {
		t.Errorf("no file: %v, %q", err, Methods{}.Last("prod"))
	}
}
