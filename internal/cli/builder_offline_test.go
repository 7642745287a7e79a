package cli

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// boRig is a sandbox on a fake clock behind a server that counts builder
// authorization requests, and a config naming it "local".
type boRig struct {
	clock   *exchangetest.FakeClock
	config  string
	url     string
	authors atomic.Int64
}

func newBoRig(t *testing.T) *boRig {
	t.Helper()
	withdrawState(t)
	r := &boRig{clock: exchangetest.NewFakeClock(time.Now().UTC())}
	h := sandbox.New(sandbox.Options{Now: r.clock.Now})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == exchange.PathBuilderAuthorize {
			r.authors.Add(1)
		}
		h.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	r.config = filepath.Join(t.TempDir(), "config.toml")
	writeConfig(t, r.config, false, "local", srv.URL, srv.URL)
	return r
}

// run runs `svcwallet builder args...` with no keys in the environment.
func (r *boRig) run(stdin string, args ...string) withdrawRun {
	var out, errOut bytes.Buffer
	c := builderCmd{env: CLIEnv{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }},
		now: r.clock.Now, nonce: signer.NewNonce}
	code := c.runLine(append(args, "--config", r.config, "--env", "local"))
	return withdrawRun{code, out.String(), errOut.String()}
}

// prepare runs builder authorize --signer offline into a new file.
func (r *boRig) prepare(t *testing.T, extra ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "builder.json")
	args := append([]string{"authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05",
		"--signer", "offline", "--account", sandbox.DemoAddress, "--out", out}, extra...)
	// What it prepared is the authorization's facts (builder.Order.Facts).
	r.run("", args...).want(t, 0, "Prepared for offline signing", "svcwallet builder submit "+out+" --signature 0x", "cast wallet sign --data --from-file "+out+"\n",
		"  Builder          "+sandbox.BuilderAddress+"  may trade for your account\n", "  Max spot fee     0.05% (signed 500)\n")
	return out
}

// TestBuilderOffline: prepare writes the typed data alone (0600), the
// journal keeps the key label the file lacks; signed by an independent
// signer it is submitted and the builder authorized, with its API key;
// a second submit is refused and sends nothing.
func TestBuilderOffline(t *testing.T) {
	r := newBoRig(t)
	out := r.prepare(t, keyArgs...)
	if r.authors.Load() != 0 {
		t.Fatal("preparing sent an authorization")
	}
	fi, err := os.Stat(out)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("file %v, mode %v, want 0600", err, fi.Mode())
	}
	b := mustRead(t, out)
	var td map[string]json.RawMessage
	if err := json.Unmarshal([]byte(b), &td); err != nil || len(td) != 4 || !strings.Contains(string(td["primaryType"]), "AddAccountSignerWithBuilder") {
		t.Fatalf("the file is not the typed data alone: %s", b)
	}
	if strings.Contains(b, "my bot") {
		t.Fatalf("the file holds the label the journal keeps: %s", b)
	}
	jb := mustRead(t, filepath.Join(os.Getenv("XDG_STATE_HOME"), "svcwallet", "journal.jsonl"))
	if !strings.Contains(jb, `"kind":"prepared"`) || !strings.Contains(jb, `"prepared":{"kind":"builder"`) || !strings.Contains(jb, `"label":"my bot"`) {
		t.Fatalf("journal lacks the prepared line: %s", jb)
	}

	// Hours later (a builder authorization lasts days, not 30 minutes).
	r.clock.Advance(3 * time.Hour)
	sig := signFile(t, out, sandbox.DemoPrivateKey)
	res := r.run("", "submit", out, "--signature", sig)
	res.want(t, 0, "Builder authorized (AddAccountSignerWithBuilder", "Admin&Trade", "my bot")
	if n := r.authors.Load(); n != 1 {
		t.Fatalf("%d authorization requests, want 1", n)
	}
	key := bcliField(t, res.stdout, "API key")
	bcliLogsIn(t, &bcliEnv{url: r.url}, key)

	// From stdin, the second submit is refused by the journal: nothing sent.
	r.run(sig+"\n", "submit", out).want(t, 1, "submitted already", "nothing was sent again")
	if n := r.authors.Load(); n != 1 {
		t.Fatalf("%d authorization requests after a second submit, want 1", n)
	}
	// The history is not confused by the builder lines.
	if jb := mustRead(t, filepath.Join(os.Getenv("XDG_STATE_HOME"), "svcwallet", "journal.jsonl")); !strings.Contains(jb, `"kind":"builder_sent"`) {
		t.Fatalf("journal lacks the sent line: %s", jb)
	}
}

// TestBuilderOfflineRefusals: a changed file, another signer, a bad
// signature and an expired authorization are refused, and nothing is sent.
func TestBuilderOfflineRefusals(t *testing.T) {
	r := newBoRig(t)
	out := r.prepare(t, "--expires", "2d")
	b := mustRead(t, out)
	tampered := filepath.Join(t.TempDir(), "tampered.json")
	if err := os.WriteFile(tampered, []byte(strings.Replace(b, `1000`, `2000`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if b == mustRead(t, tampered) {
		t.Fatal("the test's tampering changed nothing")
	}
	r.run("", "submit", tampered, "--signature", signFile(t, tampered, sandbox.DemoPrivateKey)).
		want(t, 1, "not a builder authorization prepared on this machine")
	r.run("", "submit", out, "--signature", signFile(t, out, builderKey)).
		want(t, 1, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", sandbox.DemoAddress)
	r.run("", "submit", out, "--signature", "0x1234").want(t, exitUsage, "130 hex digits")

	r.clock.Advance(2 * 24 * time.Hour)
	r.run("", "submit", out, "--signature", signFile(t, out, sandbox.DemoPrivateKey)).
		want(t, 1, "expired", "prepare it again")
	if n := r.authors.Load(); n != 0 {
		t.Fatalf("%d authorization requests, want none", n)
	}
	// --out needs --signer offline, and offline needs --out and --account.
	r.run("", "authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05",
		"--out", filepath.Join(t.TempDir(), "x.json")).want(t, exitUsage, "give --signer offline too")
	r.run("", "authorize", "--builder", sandbox.BuilderAddress, "--max-futures-fee", "0.1", "--max-spot-fee", "0.05",
		"--signer", "offline", "--account", sandbox.DemoAddress).want(t, exitUsage, "give --out FILE")
}
