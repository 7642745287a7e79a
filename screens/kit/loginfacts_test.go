package kit_test

import (
	"path/filepath"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/session"
	"github.com/svcwallet/svcwallet/signer"
)

// TestReadLoginFacts: the facts a log out reads off the event loop are the
// keystore's keys and the method this environment was last logged in with,
// the same the console reads before it runs.
func TestReadLoginFacts(t *testing.T) {
	exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP)
	app, _ := screentest.LoggedInApp(t)
	app.LoginMethods = session.Methods{File: filepath.Join(t.TempDir(), session.MethodsFile)}
	if err := app.LoginMethods.Remember(app.Target.Env.Name, session.ByAPIKey); err != nil {
		t.Fatal(err)
	}
	if _, _, err := signer.ImportRawKey(app.KeystoreDir, sandbox.DemoPrivateKey, "pw"); err != nil {
		t.Fatal(err)
	}
	msg, ok := app.ReadLoginFacts()().(kit.LoginFactsMsg)
	if !ok {
		t.Fatal("ReadLoginFacts did not answer with the login's facts")
	}
	if got := msg.Facts; len(got.Keys) != 1 || got.Keys[0].Address.Hex() != sandbox.DemoAddress || got.Last != session.ByAPIKey {
		t.Errorf("read %d keys, last %q; want the demo key and the API key", len(got.Keys), got.Last)
	}
	if again := app.LoginFacts(); len(again.Keys) != 1 || again.Last != msg.Facts.Last {
		t.Errorf("the console's own read differs: %+v", again)
	}
}
