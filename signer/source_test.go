package signer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

func TestParseSource(t *testing.T) {
	addr := "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
	for _, tc := range []struct {
		in   string
		want Source
	}{
		{"env", Source{Kind: SourceEnv}},
		{"offline", Source{Kind: SourceOffline}},
		{" command ", Source{Kind: SourceCommand}},
		{"keystore", Source{Kind: SourceKeystore}},
		{"keystore:" + addr, Source{Kind: SourceKeystore, Address: common.HexToAddress(addr)}},
		{"keystore:" + strings.ToLower(addr), Source{Kind: SourceKeystore, Address: common.HexToAddress(addr)}},
		{"/home/me/keys/UTC--x", Source{Kind: SourceKeystore, Path: "/home/me/keys/UTC--x"}},
		{"./key.json", Source{Kind: SourceKeystore, Path: "./key.json"}},
		{"key.JSON", Source{Kind: SourceKeystore, Path: "key.JSON"}},
		{"clef", Source{Kind: SourceClef, Endpoint: DefaultClefEndpoint}},
		{"clef:http://127.0.0.1:8550", Source{Kind: SourceClef, Endpoint: "http://127.0.0.1:8550"}},
		{"clef:http://localhost:8550/", Source{Kind: SourceClef, Endpoint: "http://localhost:8550/"}},
		{"clef:http://[::1]:8550", Source{Kind: SourceClef, Endpoint: "http://[::1]:8550"}},
		{"clef:https://signer.example:8550", Source{Kind: SourceClef, Endpoint: "https://signer.example:8550"}},
		{"clef:/home/me/.clef/clef.ipc", Source{Kind: SourceClef, Endpoint: "/home/me/.clef/clef.ipc"}},
		{"clef:clef.ipc", Source{Kind: SourceClef, Endpoint: "clef.ipc"}},
	} {
		got, err := ParseSource(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	for _, tc := range []struct{ in, says string }{
		{"", "empty key source"},
		{"ledger", `unknown key source "ledger"`},
		{"keystore:0x1234", "not an address"},
		{"clef:", "give clef's endpoint"},
		{"clef:http://192.168.1.5:8550", "use https for another host"},
		{"clef:http://signer.example:8550", "use https"},
		{"clef:ftp://127.0.0.1", "scheme must be"},
		{"clef:https://user:pw@signer.example", "user name or password"},
		// Said back while it waits, in errors and logs: a token in a
		// query is a secret as a password is.
		{"clef:https://signer.example/?token=pw@", "a query or fragment"},
		{"clef:https://signer.example/#pw@", "a query or fragment"},
		{"0x" + key, "shape of a private key"},
		{"keystore:" + key, "shape of a private key"},
		{"clef:http://127.0.0.1/" + key, "shape of a private key"},
		// Said back while it waits ("waiting for clef at …"): a bidi
		// override there reordered the line.
		{"/home/me/k\u202eey.json", "it holds U+202E at position 11"},
		{"clef:http://127.0.0.1:8550/\u202ex", "U+202E at position 28"},
		{"clef:/home/me/c\u202el.ipc", "U+202E"},
		// Held to the config's host rule (urlhost.Check): a
		// look-alike host is refused with its xn-- form, a port that is
		// no port too.
		{"clef:https://sign\u0435r.example:8550", "the host holds U+0435 at position 5, which no host name holds: write it in its xn-- form, xn--signr-2we.example"},
		{"clef:https://signer.example:0", "port 0 is no port"},
		{"clef:http://127.0.0.1:99999", "port 99999 is no port"},
		{"/tmp/\x1b]2;x\a.json", "U+001B"},
	} {
		_, err := ParseSource(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: %v, want an error saying %q", tc.in, err, tc.says)
			continue
		}
		if strings.Contains(err.Error(), key[:16]) || strings.Contains(err.Error(), "pw@") || strings.ContainsAny(err.Error(), "\u202e\x1b") {
			t.Errorf("%q: the error repeats a secret: %v", tc.in, err)
		}
	}
}

// TestCheckSignCommand: a command holding a key's shape is refused
// without repeating it; cast with --ledger is taken.
func TestCheckSignCommand(t *testing.T) {
	key := strings.Repeat("ab", 32)
	if err := CheckSignCommand("cast wallet sign --private-key 0x" + key + " --data {file}"); err == nil || strings.Contains(err.Error(), key[:16]) {
		t.Errorf("a key in the command: %v", err)
	}
	if err := CheckSignCommand("cast wallet sign --ledger --data --from-file {file}"); err != nil {
		t.Error(err)
	}
	// Its name is said while it runs: a bidi override there reordered the
	// line "waiting for the signing command gis<U+202E>hs.sh".
	for _, c := range []struct{ line, words string }{
		{"/opt/gis\u202ehs.sh {file}", "U+202E at position 9"},
		{"sign\u200b --data {file}", "U+200B at position 5"},
		{"sign \x1b]2;x\x07 {file}", "U+001B at position 6"},
		{"sign \xff {file}", "U+FFFD at position 6"},
		{"sign\u2009x {file}", "U+2009 at position 5"}, // a thin space, whose low byte is a tab
		{"/opt/signé {file}", ""},
	} {
		line := c.line
		err := CheckSignCommand(line)
		if c.words == "" {
			if err != nil {
				t.Errorf("%q refused: %v", line, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.words) || strings.ContainsAny(err.Error(), "\u202e\u200b\x1b") {
			t.Errorf("%q: %v, want it refused naming %s", line, err, c.words)
		}
	}
	if err := CheckSignCommand("sign --data\t{file}\n  --ledger"); err != nil {
		t.Errorf("blanks between words refused: %v", err)
	}
}

// fixedKey is a key that signs at once and counts its signatures.
type fixedKey struct {
	*PrivateKey
	waits string
	ctxs  *[]context.Context
}

func (k fixedKey) Awaiting() string { return k.waits }

func (k fixedKey) SignTypedData(ctx context.Context, d Domain, m Message) ([65]byte, error) {
	*k.ctxs = append(*k.ctxs, ctx)
	return k.PrivateKey.SignTypedData(ctx, d, m)
}

// TestWatch: a key that waits is watched around each signature, under the
// context the watcher returns; one that signs at once is left alone.
func TestWatch(t *testing.T) {
	pk, m, _ := signedTransfer(t)
	var ctxs []context.Context
	type marker struct{}
	var said []string
	done := 0
	watcher := func(ctx context.Context, awaiting string) (context.Context, func()) {
		said = append(said, awaiting)
		return context.WithValue(ctx, marker{}, awaiting), func() { done++ }
	}
	k := Watch(fixedKey{pk, "approval in clef at x", &ctxs}, watcher)
	if Awaiting(k) != "approval in clef at x" || k.Address() != pk.Address() {
		t.Fatalf("the watched key says %q, %s", Awaiting(k), k.Address())
	}
	if _, err := Sign(context.Background(), k, testDomain, m); err != nil {
		t.Fatal(err)
	}
	if len(said) != 1 || done != 1 || len(ctxs) != 1 || ctxs[0].Value(marker{}) != "approval in clef at x" {
		t.Fatalf("said %q, done %d, contexts %d", said, done, len(ctxs))
	}
	if w := Watch(pk, watcher); w != Key(pk) {
		t.Fatal("a key that signs at once was wrapped")
	}
}

// TestOpenSources: env and keystore sources give their address at once and
// the key on Load, asking a passphrase once; --account must match; a
// keystore source needs an address; errors name no secret.
func TestOpenSources(t *testing.T) {
	hexKey, addr := freshKeyHex(t)
	other, otherAddr := freshKeyHex(t)
	dir := t.TempDir()
	_, path, err := ImportRawKey(dir, hexKey, testPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	asked := 0
	o := Opening{RawKey: hexKey, KeystoreDir: dir, Passphrase: func(string) (string, error) { asked++; return testPassphrase, nil }}
	cx := context.Background()

	for _, src := range []Source{{Kind: SourceEnv}, {Kind: SourceKeystore, Address: addr}, {Kind: SourceKeystore, Path: path}} {
		asked = 0
		op, err := o.Open(cx, src)
		if err != nil || op.Address != addr {
			t.Fatalf("%+v: %v, %v", src, op.Address, err)
		}
		k1, err1 := op.Load()
		k2, err2 := op.Load()
		if err1 != nil || err2 != nil || k1.Address() != addr || k1 != k2 {
			t.Fatalf("%+v: load %v %v", src, err1, err2)
		}
		if want := map[SourceKind]int{SourceEnv: 0, SourceKeystore: 1}[src.Kind]; asked != want {
			t.Errorf("%+v: the passphrase was asked %d times, want %d", src, asked, want)
		}
	}
	withAccount := o
	withAccount.Account = addr
	if op, err := withAccount.Open(cx, Source{Kind: SourceKeystore}); err != nil || op.Address != addr {
		t.Fatalf("keystore with --account: %v, %v", op.Address, err)
	}
	if _, err := o.Open(cx, Source{Kind: SourceKeystore}); !errors.Is(err, ErrNeedAccount) {
		t.Fatalf("keystore without an address: %v", err)
	}
	withAccount.Account = otherAddr
	if _, err := withAccount.Open(cx, Source{Kind: SourceEnv}); err == nil || !strings.Contains(err.Error(), "not of the account named, "+otherAddr.Hex()) {
		t.Fatalf("env key of another account: %v", err)
	}
	if _, err := withAccount.Open(cx, Source{Kind: SourceKeystore, Address: addr}); err == nil || !strings.Contains(err.Error(), "not of the account named") {
		t.Fatalf("keystore:A with --account B: %v", err)
	}
	bad := o
	bad.RawKey = other[:40]
	if _, err := bad.Open(cx, Source{Kind: SourceEnv}); err == nil || strings.Contains(err.Error(), other[:16]) {
		t.Fatalf("a bad env key: %v", err)
	}
	bad.RawKey = ""
	if _, err := bad.Open(cx, Source{Kind: SourceEnv}); err == nil || !strings.Contains(err.Error(), "$"+KeyEnvVar+" is not set") {
		t.Fatalf("no env key: %v", err)
	}
	if _, err := o.Open(cx, Source{Kind: SourceCommand}); err == nil || !strings.Contains(err.Error(), SignCommandEnvVar) {
		t.Fatalf("no signing command: %v", err)
	}
	cmd := o
	cmd.SignCommand, cmd.Start = "sign {file}", startChild
	if _, err := cmd.Open(cx, Source{Kind: SourceCommand}); !errors.Is(err, ErrNeedAccount) {
		t.Fatalf("a signing command without --account: %v", err)
	}
	cmd.SignCommand = "sign --key " + other
	cmd.Account = addr
	if _, err := cmd.Open(cx, Source{Kind: SourceCommand}); err == nil || strings.Contains(err.Error(), other[:16]) {
		t.Fatalf("a key in the signing command: %v", err)
	}
}

// TestSignCommandFilePrivate: the typed data file is 0600 in a 0700
// directory of its own while the command runs, and gone after.
func TestSignCommandFilePrivate(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pk, m, _ := signedTransfer(t)
	var seen string
	start := func(ctx context.Context, name string, arg ...string) *osguard.GroupCmd {
		seen = strings.TrimPrefix(arg[len(arg)-1], "--data=")
		fi, err := os.Stat(seen)
		di, derr := os.Stat(filepath.Dir(seen))
		if err != nil || derr != nil || fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
			t.Fatalf("typed data file %s: %v, %v", seen, err, derr)
		}
		if b, _ := os.ReadFile(seen); string(b) != string(TypedDataJSON(testDomain, m)) {
			t.Errorf("the file holds %s", b)
		}
		return startChild(ctx, "false")
	}
	k := NewCommandKey(pk.Address(), []string{"sign", "--data={file}"}, start, 0)
	_, err := k.SignTypedData(context.Background(), testDomain, m)
	var se *SourceError
	if !errors.As(err, &se) || !se.Refused || !strings.Contains(err.Error(), "the signing command sign exited with status 1") {
		t.Fatalf("false: %v", err)
	}
	if !strings.HasPrefix(filepath.Base(seen), "typed-data") || !strings.HasPrefix(seen, tmp) {
		t.Fatalf("file %s", seen)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// TestKeystoreFile: --keystore-file's path is held to what a keystore path
// given as a key source is: a control or invisible character is refused.
func TestKeystoreFile(t *testing.T) {
	if s, err := KeystoreFile("/home/me/keys/UTC--x"); err != nil || s != (Source{Kind: SourceKeystore, Path: "/home/me/keys/UTC--x"}) {
		t.Fatalf("%+v, %v", s, err)
	}
	_, err := KeystoreFile("/home/me/k\u202eey.json")
	if err == nil || !strings.HasPrefix(err.Error(), "it holds U+202E at position 11") || strings.Contains(err.Error(), "\u202e") {
		t.Fatalf("a bidi override in the path: %v", err)
	}
}
