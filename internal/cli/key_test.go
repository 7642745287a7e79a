package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/signer"
)

const (
	cliPass  = "pass-Phrase-7781"
	cliPass2 = "other-Phrase-5512"
)

// lightScrypt makes keystore writes fast; the file format is unchanged.
func lightScrypt(t *testing.T) { exchangetest.CheapScrypt(t, &signer.ScryptN, &signer.ScryptP) }

type keyResult struct {
	code           int
	stdout, stderr string
}

// keyCmd runs `svcwallet key args...` with stdin as the piped input and
// env vars as the whole environment; secrets are read line by line from
// stdin, as terminalReadSecret does when stdin is not a terminal.
func keyCmd(t *testing.T, stdin string, vars map[string]string, args ...string) keyResult {
	t.Helper()
	in := strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	env := CLIEnv{
		Stdin: in, Stdout: &out, Stderr: &errOut,
		Getenv:     func(k string) string { return vars[k] },
		ReadSecret: func(context.Context, string) (string, error) { return plain.ReadLine(in) },
	}
	code := Run(append([]string{"key"}, args...), env)
	return keyResult{code, out.String(), errOut.String()}
}

// noSecrets fails if any secret shows in the command's output, in any case.
func (r keyResult) noSecrets(t *testing.T, secrets ...string) {
	t.Helper()
	all := strings.ToLower(r.stdout + r.stderr)
	for _, s := range secrets {
		if strings.Contains(all, strings.ToLower(s)) {
			t.Errorf("output reveals a secret:\nstdout: %s\nstderr: %s", r.stdout, r.stderr)
		}
	}
}

func testKeyHex(t *testing.T) (string, common.Address) {
	t.Helper()
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	keyHex := hex.EncodeToString(k.Serialize())
	return keyHex, exchangetest.KeyAddress(keyHex)
}

func lines(ss ...string) string { return strings.Join(ss, "\n") + "\n" }

// outputField reads "Name: value" from the output of new and import.
func outputField(t *testing.T, out, name string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, name+":"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %s in output %q", name, out)
	return ""
}

func TestKeyNew(t *testing.T) {
	lightScrypt(t)
	dir := filepath.Join(t.TempDir(), "ks")
	r := keyCmd(t, lines(cliPass, cliPass), nil, "new", "--keystore", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r.noSecrets(t, cliPass)
	addr := common.HexToAddress(outputField(t, r.stdout, "Address"))
	path := outputField(t, r.stdout, "Keystore file")
	if filepath.Dir(path) != dir {
		t.Errorf("file %s is not in %s", path, dir)
	}
	k, err := signer.LoadKeystoreKey(path, cliPass)
	if err != nil {
		t.Fatal(err)
	}
	if k.Address() != addr {
		t.Fatalf("file holds %s, output says %s", k.Address(), addr)
	}
	blob, _ := os.ReadFile(path)
	if !strings.Contains(string(blob), hex.EncodeToString(k.Address().Bytes())) {
		t.Errorf("keystore file lacks its address field")
	}
}

func TestKeyImportListAndJSON(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	hexKey, want := testKeyHex(t)
	r := keyCmd(t, lines("0x"+hexKey, cliPass, cliPass), nil, "import", "--keystore", dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	r.noSecrets(t, hexKey, cliPass)
	if got := outputField(t, r.stdout, "Address"); got != want.Hex() {
		t.Fatalf("imported %s, want %s", got, want.Hex())
	}
	path := outputField(t, r.stdout, "Keystore file")
	if k, err := signer.LoadKeystoreKey(path, cliPass); err != nil || k.Address() != want {
		t.Fatalf("load imported file: %v, %v", k, err)
	}

	// The same key again is refused before any passphrase is asked for.
	r = keyCmd(t, lines(hexKey), nil, "import", "--keystore", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "already in the keystore") {
		t.Fatalf("second import: exit %d, %s", r.code, r.stderr)
	}
	r.noSecrets(t, hexKey)

	_, path2 := mustNew(t, dir)
	r = keyCmd(t, "", nil, "list", "--keystore", dir)
	if r.code != 0 {
		t.Fatalf("list: exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, want.Hex()+"  "+path) || !strings.Contains(r.stdout, path2) {
		t.Errorf("list output %q lacks the keys", r.stdout)
	}
	if n := strings.Count(r.stdout, "\n"); n != 2 {
		t.Errorf("list printed %d lines, want 2", n)
	}

	r = keyCmd(t, "", nil, "list", "--json", "--keystore", dir)
	if r.code != 0 {
		t.Fatalf("list --json: exit %d: %s", r.code, r.stderr)
	}
	var entries []struct{ Address, Path string }
	if err := json.Unmarshal([]byte(r.stdout), &entries); err != nil {
		t.Fatalf("list --json is not JSON: %v\n%s", err, r.stdout)
	}
	if len(entries) != 2 || !strings.Contains(r.stdout, `"address": "`+want.Hex()+`"`) {
		t.Errorf("list --json = %s", r.stdout)
	}
}

func TestKeyImportRefusesKeyInArgv(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	hexKey, _ := testKeyHex(t)
	for _, args := range [][]string{
		{"import", "--keystore", dir, hexKey},
		{"import", "--keystore", dir, "0x" + hexKey},
		{"import", "0x" + strings.ToUpper(hexKey), "--keystore", dir},
		{"import", "--keystore=" + hexKey},
		{"import", "--keystore", hexKey},
		{"0x" + hexKey},
		{"new", "--keystore", dir, hexKey},
	} {
		// Stdin holds a valid import, so only the argv check can stop it.
		r := keyCmd(t, lines(hexKey, cliPass, cliPass), nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "refusing a private key on the command line") {
			t.Errorf("%d args: exit %d, stderr %q", len(args), r.code, r.stderr)
		}
		r.noSecrets(t, hexKey, cliPass)
	}
	if entries, _ := signer.ListKeystore(dir); len(entries) != 0 {
		t.Fatalf("a refused command wrote %v", entries)
	}
	if _, err := os.Stat(hexKey); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a directory was created named after the key")
	}

	// Any other argument is refused too, without being echoed.
	r := keyCmd(t, lines(hexKey, cliPass, cliPass), nil, "import", "--keystore", dir, "something-secretish")
	if r.code != 2 || !strings.Contains(r.stderr, "takes no arguments") {
		t.Errorf("extra argument: exit %d, stderr %q", r.code, r.stderr)
	}
	r.noSecrets(t, "something-secretish", hexKey)
}

func TestKeyPassphraseRefusals(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	hexKey, _ := testKeyHex(t)
	for _, tc := range []struct {
		name, stdin, why string
		args             []string
	}{
		{"new mismatch", lines(cliPass, cliPass2), "do not match", []string{"new"}},
		{"import mismatch", lines(hexKey, cliPass, cliPass2), "do not match", []string{"import"}},
		{"new empty", lines("", ""), "passphrase is empty", []string{"new"}},
		{"import empty", lines(hexKey, "", ""), "passphrase is empty", []string{"import"}},
		{"new no input", "", "stdin ended before the passphrase", []string{"new"}},
		{"new no repeat", lines(cliPass), "stdin ended before the repeated passphrase", []string{"new"}},
		{"import no input", "", "stdin ended before the private key", []string{"import"}},
		{"import bad key", lines(hexKey[:63]+"x", cliPass, cliPass), "not valid secp256k1 hex", []string{"import"}},
		{"import short key", lines(hexKey[:40], cliPass, cliPass), "private key must be", []string{"import"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := keyCmd(t, tc.stdin, nil, append(tc.args, "--keystore", dir)...)
			if r.code != 1 || !strings.Contains(r.stderr, tc.why) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", r.code, r.stderr, tc.why)
			}
			if n := strings.Count(strings.TrimSpace(r.stderr), "\n"); n != 0 {
				t.Errorf("error is %d lines, want one: %q", n+1, r.stderr)
			}
			r.noSecrets(t, hexKey, hexKey[:40], cliPass, cliPass2)
		})
	}
	if entries, _ := signer.ListKeystore(dir); len(entries) != 0 {
		t.Fatalf("refused commands wrote %v", entries)
	}
}

func TestKeyUsage(t *testing.T) {
	for _, args := range [][]string{
		nil, {"frobnicate"}, {"new", "--bogus"}, {"list", "extra"}, {"new", "extra"},
	} {
		r := keyCmd(t, "", nil, args...)
		if r.code != 2 || !strings.Contains(r.stderr, "run 'svcwallet key") || strings.Count(r.stderr, "\n") != 2 || r.stdout != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// TestKeyHelp: asking for help is not a mistake: stdout, exit 0.
func TestKeyHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"list", "-h"}, {"new", "--help"}} {
		r := keyCmd(t, "", nil, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "svcwallet key") || !strings.Contains(r.stdout, "--keystore") || r.stderr != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, r.code, r.stdout, r.stderr)
		}
	}
}

// --password-file gives the passphrase once (no repeat), and --json prints
// {address, path}; neither the key nor the passphrase is printed.
func TestKeyPasswordFileAndJSON(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	pwFile := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pwFile, []byte(cliPass+"\nignored second line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hexKey, want := testKeyHex(t)
	r := keyCmd(t, lines(hexKey), nil, "import", "--keystore", dir, "--password-file", pwFile, "--json")
	if r.code != 0 {
		t.Fatalf("import: exit %d: %s", r.code, r.stderr)
	}
	r.noSecrets(t, hexKey, cliPass)
	var out struct{ Address, Path string }
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Address != want.Hex() {
		t.Fatalf("import --json = %q (%v)", r.stdout, err)
	}
	if k, err := signer.LoadKeystoreKey(out.Path, cliPass); err != nil || k.Address() != want {
		t.Fatalf("the file is not encrypted with the first line of the password file: %v", err)
	}

	r = keyCmd(t, "", nil, "new", "--keystore", dir, "--password-file", pwFile, "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		t.Fatalf("new: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	if _, err := signer.LoadKeystoreKey(out.Path, cliPass); err != nil {
		t.Fatal(err)
	}

	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = keyCmd(t, "", nil, "new", "--keystore", dir, "--password-file", empty)
	if r.code != 1 || !strings.Contains(r.stderr, "empty line") {
		t.Fatalf("empty password file: exit %d: %s", r.code, r.stderr)
	}
	r = keyCmd(t, "", nil, "new", "--keystore", dir, "--password-file", filepath.Join(dir, "missing"))
	if r.code != 1 || !strings.Contains(r.stderr, "does not exist: check the path given to --password-file") {
		t.Fatalf("missing password file: exit %d: %s", r.code, r.stderr)
	}
}

// TestKeyImportCtrlDAtTheTerminal (found by review): ctrl+d at key
// import's hidden prompt on a terminal says the terminal's input ended
// (ctrl+d); it said stdin ended "or run in a terminal", which it was.
func TestKeyImportCtrlDAtTheTerminal(t *testing.T) {
	var out, errOut bytes.Buffer
	ctrlD := func(_ context.Context, prompt func()) (string, error) { prompt(); return "", io.EOF }
	env := CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" },
		ReadSecret: func(ctx context.Context, prompt string) (string, error) {
			return hiddenSecret(ctx, ctrlD, &errOut, prompt)
		}}
	dir := t.TempDir()
	code := Run([]string{"key", "import", "--keystore", dir}, env)
	want := "the terminal's input ended (ctrl+d) before the private key: nothing was written"
	if code != 1 || !strings.Contains(errOut.String(), want) || strings.Contains(errOut.String(), "run in a terminal") {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, errOut.String(), want)
	}
	if entries, _ := signer.ListKeystore(dir); len(entries) != 0 {
		t.Fatalf("wrote %v", entries)
	}
}

// TestKeyImportSaysHowToSignWithIt: where an import ends it says the key
// source that signs with the key, and that source finds it: keystore:ADDRESS
// in the keystore folder, the file's path elsewhere. A newcomer stopped at
// the import met "no signing key" at withdraw.
func TestKeyImportSaysHowToSignWithIt(t *testing.T) {
	lightScrypt(t)
	dir := t.TempDir()
	hexKey, want := testKeyHex(t)
	cfg := filepath.Join(t.TempDir(), "work.toml")
	r := keyCmd(t, lines(hexKey, cliPass, cliPass), map[string]string{signer.KeystoreEnvVar: dir, configPathVar: cfg}, "import")
	said := regexp.MustCompile(`To sign with it: --signer (\S+) on a command, or signer = "([^"]+)" in its environment's table of the config \(([^)]+)\)`).FindStringSubmatch(r.stderr)
	if r.code != 0 || said == nil || said[1] != said[2] {
		t.Fatalf("exit %d, the import does not say how to sign with it:\n%s", r.code, r.stderr)
	}
	if src, err := signer.ParseSource(said[1]); err != nil || src.Address != want {
		t.Errorf("the import says %s (%v), want the key source of %s", said[1], err, want.Hex())
	} else if _, err := signer.FindKeystore(dir, src.Address); err != nil {
		t.Errorf("keystore:%s finds no file: %v", want.Hex(), err)
	}
	if said[3] != cfg {
		t.Errorf("the config named is %s, want $%s's %s", said[3], configPathVar, cfg)
	}
	// A config path holding an escape is named escaped, never written raw.
	hexKey3, _ := testKeyHex(t)
	r = keyCmd(t, lines(hexKey3, cliPass, cliPass), map[string]string{signer.KeystoreEnvVar: dir, configPathVar: "/tmp/c\x1b[2J.toml"}, "import")
	if r.code != 0 || strings.Contains(r.stderr, "\x1b") || !strings.Contains(r.stderr, `"/tmp/c\x1b[2J.toml"`) {
		t.Errorf("exit %d, the config's path is not named escaped:\n%q", r.code, r.stderr)
	}

	// A config path of a key's shape ($SVCWALLET_CONFIG set to the key by
	// mistake) is not repeated (config.ShownPath).
	const demoKey = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	hexKey5, _ := testKeyHex(t)
	r = keyCmd(t, lines(hexKey5, cliPass, cliPass), map[string]string{signer.KeystoreEnvVar: dir, configPathVar: demoKey}, "import")
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, demoKey[:9]) || !strings.Contains(r.stderr, "To sign with it") {
		t.Errorf("exit %d, the config's path of a key's shape is repeated:\n%s", r.code, r.stderr)
	}

	// A folder with a space in its name: the flag's path is one word of
	// the shell, the config's is the path itself.
	other := filepath.Join(t.TempDir(), "my keys")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	hexKey2, _ := testKeyHex(t)
	r = keyCmd(t, lines(hexKey2, cliPass, cliPass), nil, "import", "--keystore", other)
	path := outputField(t, r.stdout, "Keystore file")
	if !strings.Contains(r.stderr, "--signer "+safetext.ShellWord(path)+" on a command") || safetext.ShellWord(path) == path ||
		!strings.Contains(r.stderr, fmt.Sprintf("signer = %q", path)) {
		t.Errorf("a key outside the keystore folder is not named by its path, quoted for the shell:\n%s", r.stderr)
	}

	// A folder holding a no-break space: the file is named escaped, and
	// neither the flag nor the config's line names it raw.
	odd := filepath.Join(t.TempDir(), "my\u00a0keys")
	if err := os.Mkdir(odd, 0o700); err != nil {
		t.Fatal(err)
	}
	hexKey4, _ := testKeyHex(t)
	r = keyCmd(t, lines(hexKey4, cliPass, cliPass), nil, "import", "--keystore", odd)
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "\u00a0") || !strings.Contains(r.stdout, `my\u00a0keys`) ||
		!strings.Contains(r.stderr, "--signer and the file's path on a command") {
		t.Errorf("exit %d, a keystore path holding a no-break space is named raw:\n%q\n%q", r.code, r.stdout, r.stderr)
	}
}
