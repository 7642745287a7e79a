package config_test

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/config"
)

// TestLoadConfigRefusesUserinfo: a URL holding a user name or password is
// refused at load, and the refusal never repeats the password, even when
// the URL is otherwise malformed.
func TestLoadConfigRefusesUserinfo(t *testing.T) {
	const password = "hunter2pass"
	env := func(auth, extra string) string {
		return "[env.x]\nauth_url = \"" + auth + "\"\nbase_url = \"https://b.example\"\nmarket_data_url = \"https://m.example\"\nchain_id = 1\n" + extra
	}
	for _, tc := range []struct{ name, text, shown string }{
		{"user and password", env("https://user:"+password+"@auth.example/v1", ""), `"https://…@auth.example"`},
		{"password only", env("https://:"+password+"@auth.example", ""), `"https://…@auth.example"`},
		{"user name only", env("https://"+password+"@auth.example", ""), `"https://…@auth.example"`},
		{"on loopback http", env("http://u:"+password+"@127.0.0.1:8700", ""), `"http://…@127.0.0.1:8700"`},
		{"malformed escape in the password", env("https://u:"+password+"%zz@auth.example", ""), `"https://…@auth.example"`},
		{"no scheme", env("u:"+password+"@auth.example", ""), `"…@auth.example"`},
		{"explorer link", env("https://a.example", "[env.x.explorer_tx]\nBASE = \"https://u:"+password+"@scan.example/tx/{hash}\"\n"), `"https://…@scan.example"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.LoadConfig(writeConfig(t, tc.text), true)
			if err == nil || !strings.Contains(err.Error(), tc.shown+" holds a user name or password (user:…@): remove it") {
				t.Fatalf("error %v, want the URL shown as %s and refused", err, tc.shown)
			}
			if strings.Contains(err.Error(), password) {
				t.Fatal("the refusal repeats the password")
			}
		})
	}
	// An @ in the path is not a user name.
	if _, err := config.LoadConfig(writeConfig(t, env("https://auth.example/@v1", "")), true); err != nil {
		t.Fatalf("an @ in the path refused: %v", err)
	}
}

// TestURLRefusalNeverRepeatsTheQuery: a URL refused (for its query, which
// is refused before its scheme, or a character) is shown cut before its query or
// fragment: ?apikey= or #token= holds a secret as a password does, and
// the refusal goes to doctor's report, which is pasted into tickets.
func TestURLRefusalNeverRepeatsTheQuery(t *testing.T) {
	const token = "hunter2token"
	for _, tc := range []struct{ raw, shown, says string }{
		{"https://auth.example/v1?apikey=" + token, `"https://auth.example/v1?…"`, "a query or fragment"},
		{"https://auth.example/#token=" + token, `"https://auth.example/#…"`, "a query or fragment"},
		{"http://auth.example/?key=" + token, `"http://auth.example/?…"`, "a query or fragment"},
		{"ftp://auth.example/?key=" + token, `"ftp://auth.example/?…"`, "a query or fragment"},
		{"https://auth.example/?key=" + token + "\u202e", `"https://auth.example/?…"`, "holds U+202E"},
	} {
		err := config.CheckURL(tc.raw)
		if err == nil || !strings.Contains(err.Error(), tc.shown) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("CheckURL(%q) = %v, want it shown as %s, saying %q", tc.raw, err, tc.shown, tc.says)
		}
		if err != nil && strings.Contains(err.Error(), token) {
			t.Errorf("CheckURL(%q) repeats the query: %v", tc.raw, err)
		}
	}
}
