package cli

import (
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
)

// TestWalletSecretNeverSentNorEchoed: a recovery phrase, a SOLANA
// keypair file (its 64 bytes as a JSON list) or a key in base64 given to status, as
// arguments or on standard input (`status - < id.json`), is refused (exit
// 2) before any request and never repeated: each word was sent as a quote
// id, and a refused line was said with its first 40 characters. It is
// not said to be a TRON payout hash, as a key's hex shape is.
func TestWalletSecretNeverSentNorEchoed(t *testing.T) {
	phrase := "legal winner thank year wave sausage worth useful legal winner thank yellow"
	var keypair []string
	for i := range 64 {
		keypair = append(keypair, strconv.Itoa((i*37+11)%256))
	}
	idJSON := "[" + strings.Join(keypair, ",") + "]"
	raw := make([]byte, 64)
	for i := range raw {
		raw[i] = byte(i*37 + 251)
	}
	b64 := base64.StdEncoding.EncodeToString(raw)
	leaked := func(out string) bool {
		return strings.Contains(out, "sausage") || strings.Contains(out, "yellow") || strings.Contains(out, strings.Join(keypair[1:4], ",")) ||
			strings.Contains(out, b64[:8])
	}
	r := newStatusRig(t)
	for _, stdin := range []string{phrase + "\n", strings.ReplaceAll(phrase, " ", "\n") + "\n", idJSON + "\n", "[\n  " + strings.Join(keypair, ",\n  ") + "\n]\n", b64 + "\n", strings.TrimRight(b64, "=") + "\n"} {
		res := r.runStdin(stdin, "-")
		if res.code != exitUsage || !strings.Contains(res.stderr, "recovery phrase") || strings.Contains(res.stderr, "0x in front") || leaked(res.stdout+res.stderr) {
			t.Errorf("status - < %.30q: exit %d, stdout %q, stderr %q", stdin, res.code, res.stdout, res.stderr)
		}
		if n := len(r.takeAsks()); n != 0 {
			t.Errorf("status - < %.30q: %d status requests, want none", stdin, n)
		}
	}
	for _, args := range [][]string{strings.Fields(phrase), {idJSON}, {"q-1", idJSON, "--json"}, {b64}, {strings.TrimRight(b64, "=")}} {
		res := depositCmd(t, nil, append([]string{"status"}, args...)...)
		if res.code != exitUsage || !strings.Contains(res.stdout+res.stderr, "refusing a wallet secret on the command line") || leaked(res.stdout+res.stderr) {
			t.Errorf("status %.40q: exit %d, stdout %q, stderr %q", args, res.code, res.stdout, res.stderr)
		}
	}
}
