package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/signer"
)

// TestKeyImportInterruptedExits130: ctrl+c at key import's passphrase
// exits 130, as every command's interruption does (report's one mapper),
// saying nothing was written, and writes nothing.
func TestKeyImportInterruptedExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	env := CLIEnv{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut, Getenv: noEnv,
		ReadSecret: func(_ context.Context, prompt string) (string, error) {
			if strings.HasPrefix(prompt, "Private key") {
				return sandbox.DemoPrivateKey, nil
			}
			cancel() // ctrl+c at the passphrase
			return "", context.Canceled
		}}
	a := newApp(env)
	a.ctx = ctx
	if code := a.execute([]string{"key", "import", "--keystore", dir}); code != 130 || !strings.Contains(errOut.String(), "interrupted: nothing was written") {
		t.Fatalf("exit %d, stderr %q; want 130, interrupted: nothing was written", code, errOut.String())
	}
	if entries, _ := signer.ListKeystore(dir); len(entries) != 0 {
		t.Fatalf("wrote %v", entries)
	}
}
