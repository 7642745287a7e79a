package cli

import (
	"encoding/base64"
	"fmt"
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

// TestStatusStdinPhraseOneALineIsOneSecret: a recovery phrase piped to
// `status -` one word a line, numbered or not, after an id or not, is
// refused as one secret naming every line it is on, its words never
// repeated; it was said as its first line alone ("line 1 is not a quote
// id"), as if the other eleven were something else.
func TestStatusStdinPhraseOneALineIsOneSecret(t *testing.T) {
	words := strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow")
	var numbered []string
	for i, w := range words {
		numbered = append(numbered, fmt.Sprintf("%02d. %s", i+1, w))
	}
	r := newStatusRig(t)
	for stdin, lines := range map[string]string{
		strings.Join(words, "\n") + "\n":              "standard input lines 1 to 12 are one wallet secret, not quote ids: ",
		strings.Join(numbered, "\n") + "\n":           "standard input lines 1 to 12 are one wallet secret, not quote ids: ",
		"q-1\n\n" + strings.Join(numbered, "\r\n"):    "standard input lines 3 to 14 are one wallet secret, not quote ids: ",
		"q-1\n" + strings.Join(words, "\n") + "\nq-2": "standard input lines 2 to 13 are one wallet secret, not quote ids: ",
	} {
		res := r.runStdin(stdin, "-")
		if res.code != exitUsage || !strings.Contains(res.stderr, lines) || strings.Count(res.stderr, "line") != 1 ||
			strings.Contains(res.stdout+res.stderr, "sausage") || strings.Contains(res.stdout+res.stderr, "yellow") {
			t.Errorf("status - < %.30q: exit %d, stdout %q, stderr %q", stdin, res.code, res.stdout, res.stderr)
		}
	}
}

// TestStatusRefusesASLIP39Share: a Trezor's backup in SLIP-39 (20 words of
// its own list, about half of them on BIP-39's) given to status, as
// arguments or on standard input, is refused before any request and never
// repeated: it was sent as 20 quote ids, each said back.
func TestStatusRefusesASLIP39Share(t *testing.T) {
	share := "duckling enlarge academic academic agency result length solution fridge kidney coal piece deal husband erode duke ajar critical decision keyboard"
	r := newStatusRig(t)
	res := r.runStdin(share+"\n", "-")
	if res.code != exitUsage || strings.Contains(res.stdout+res.stderr, "duckling") || len(r.takeAsks()) != 0 {
		t.Errorf("status - < share: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}
	args := depositCmd(t, nil, append([]string{"status"}, strings.Fields(share)...)...)
	if args.code != exitUsage || !strings.Contains(args.stderr, "refusing a wallet secret on the command line") || strings.Contains(args.stdout+args.stderr, "duckling") {
		t.Errorf("status share: exit %d, stdout %q, stderr %q", args.code, args.stdout, args.stderr)
	}
}

// TestStatusStdinSecretsNextToEachOtherSaidEach: two wallet secrets on
// lines next to each other (a phrase one word a line, then a key in
// base64; two keys in base64) are said each with its lines, never
// repeated, and what they are said of several: they were said as one
// secret on all their lines, then "it has the shape" of the two.
func TestStatusStdinSecretsNextToEachOtherSaidEach(t *testing.T) {
	words := strings.Fields("legal winner thank year wave sausage worth useful legal winner thank yellow")
	raw := make([]byte, 32)
	for i := range raw {
		raw[i] = byte(i*37 + 251)
	}
	b64 := base64.StdEncoding.EncodeToString(raw)
	raw[0]++
	other := base64.StdEncoding.EncodeToString(raw)
	r := newStatusRig(t)
	for stdin, said := range map[string]string{
		strings.Join(words, "\n") + "\n" + b64 + "\n": "standard input lines 1 to 12 and line 13 are 2 wallet secrets, not quote ids: each has the shape of ",
		"q-1\n" + b64 + "\n" + other + "\n":           "standard input line 2 and line 3 are 2 wallet secrets, not quote ids: each has the shape of ",
	} {
		res := r.runStdin(stdin, "-")
		if res.code != exitUsage || !strings.Contains(res.stderr, said) || strings.Contains(res.stdout+res.stderr, "sausage") ||
			strings.Contains(res.stdout+res.stderr, b64[:8]) || strings.Contains(res.stdout+res.stderr, other[:8]) {
			t.Errorf("status - < %.30q: exit %d, stdout %q, stderr %q", stdin, res.code, res.stdout, res.stderr)
		}
	}
}

// TestStatusRefusesTheQuoteRefusedID: the quote id of 12 BIP-39 words
// joined that a quote answer is refused for before anything is signed
// (service/exchange's TestQuoteIDHeldToStatusRule) is refused by status,
// as an argument and on standard input, by the same rule: never asked,
// never repeated. A quote id status takes is one the quote step takes.
func TestStatusRefusesTheQuoteRefusedID(t *testing.T) {
	const id = "legal-winner-thank-year-wave-sausage-worth-useful-legal-winner-thank-yellow"
	r := newStatusRig(t)
	for _, res := range []statusRun{r.run(nil, id), r.runStdin(id+"\n", "-")} {
		if res.code != exitUsage || !strings.Contains(res.stderr, "recovery phrase") || strings.Contains(res.stdout+res.stderr, "sausage") {
			t.Errorf("status of the joined phrase: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
		}
	}
	if n := len(r.takeAsks()); n != 0 {
		t.Errorf("%d status requests, want none", n)
	}
}
