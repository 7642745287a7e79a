package signer

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/internal/osguard"
)

// startChild starts a signing command with osguard.CommandContext's clean
// environment (the fake command refuses to sign if a SVCWALLET_ variable
// reaches it), without a group of its own: the osguard tests hold the
// group to ending whole.
func startChild(ctx context.Context, name string, arg ...string) *osguard.GroupCmd {
	return &osguard.GroupCmd{Cmd: osguard.CommandContext(ctx, name, arg...)}
}

var demoAddr = exchangetest.KeyAddress(exchangetest.DemoKeyHex)

func demoTransfer() Transfer { return testTransfer(demoAddr) }

// TestClefSigns: without --account, clef's one account is used; the whole
// typed data reaches clef (which hashes it with go-ethereum's code) and
// the signature passes Sign's check.
func TestClefSigns(t *testing.T) {
	f := exchangetest.NewFakeClef(t)
	op, err := Opening{}.Open(context.Background(), Source{Kind: SourceClef, Endpoint: f.URL})
	if err != nil || op.Address != demoAddr {
		t.Fatalf("open: %s, %v", op.Address, err)
	}
	k, err := op.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got := Awaiting(k); got != "approval in clef at "+f.URL {
		t.Fatalf("awaiting %q", got)
	}
	m := demoTransfer()
	sig, err := Sign(context.Background(), k, testDomain, m)
	if err != nil || sig.Signer != demoAddr {
		t.Fatalf("sign: %+v, %v", sig, err)
	}
	signed := f.Signed()
	if len(signed) != 1 || signed[0].PrimaryType != "Transfer" || signed[0].Domain.Name != DefaultDomainName ||
		signed[0].Message["numTokens"] != "25500000" || signed[0].Message["toAccount"] != m.ToAccount.Hex() {
		t.Fatalf("clef was given %+v", signed)
	}
	if calls := f.Calls(); strings.Join(calls, " ") != "account_list account_signTypedData" {
		t.Fatalf("calls %v", calls)
	}
}

// TestClefAccounts: clef with several accounts needs --account (and is
// then not asked to list); with none it says so.
func TestClefAccounts(t *testing.T) {
	f := exchangetest.NewFakeClef(t)
	f.Accounts = []common.Address{demoAddr, common.HexToAddress("0x1111111111111111111111111111111111111111")}
	src := Source{Kind: SourceClef, Endpoint: f.URL}
	if _, err := (Opening{}).Open(context.Background(), src); !errors.Is(err, ErrNeedAccount) || !strings.Contains(err.Error(), "holds 2 accounts") {
		t.Fatalf("two accounts: %v", err)
	}
	op, err := Opening{Account: demoAddr}.Open(context.Background(), src)
	if err != nil || op.Address != demoAddr || len(f.Calls()) != 1 {
		t.Fatalf("--account: %s, %v, calls %v", op.Address, err, f.Calls())
	}
	f.Accounts = []common.Address{}
	if _, err := (Opening{}).Open(context.Background(), src); err == nil || !strings.Contains(err.Error(), "holds no account") {
		t.Fatalf("no account: %v", err)
	}
}

// TestClefFailures: a refusal, a signature by another key, garbage, a
// wait that runs out or is cancelled, and clef unreachable each give one
// clean line and no signature.
func TestClefFailures(t *testing.T) {
	m := demoTransfer()
	sign := func(f *exchangetest.FakeClef, ctx context.Context, wait time.Duration) error {
		_, err := Sign(ctx, NewClef(f.URL, wait).Key(demoAddr), testDomain, m)
		return err
	}
	t.Run("refused", func(t *testing.T) {
		f := exchangetest.NewFakeClef(t)
		f.Deny = true
		err := sign(f, context.Background(), 0)
		var se *SourceError
		if !errors.As(err, &se) || !se.Refused || err.Error() != "clef at "+f.URL+" refused to sign (request denied)" {
			t.Fatalf("%v", err)
		}
	})
	t.Run("another key", func(t *testing.T) {
		f := exchangetest.NewFakeClef(t)
		f.KeyHex = exchangetest.OtherKeyHex
		err := sign(f, context.Background(), 0)
		other := exchangetest.KeyAddress(exchangetest.OtherKeyHex).Hex()
		if !errors.Is(err, ErrWrongSigner) || !strings.Contains(err.Error(), "recovers to "+other+", not to the expected "+demoAddr.Hex()) {
			t.Fatalf("%v", err)
		}
	})
	for _, tc := range []struct{ raw, says string }{
		{`"0x1234"`, "answered a signature of 2 bytes, not 65"},
		{`"hello"`, "unreadable result"},
		{`null`, "unreadable result"},
		{`"0x` + strings.Repeat("00", 65) + `"`, "recovers to no address"},
	} {
		t.Run("garbage "+tc.raw[:min(len(tc.raw), 8)], func(t *testing.T) {
			f := exchangetest.NewFakeClef(t)
			f.Raw = json.RawMessage(tc.raw)
			if err := sign(f, context.Background(), 0); err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("%v, want %q", err, tc.says)
			}
		})
	}
	t.Run("timeout", func(t *testing.T) {
		f := exchangetest.NewFakeClef(t)
		f.OnSign = func() bool { return false }
		err := sign(f, context.Background(), 50*time.Millisecond)
		var we *WaitError
		if !errors.As(err, &we) || we.Cancelled || err.Error() != "no signature after waiting 50ms for approval in clef at "+f.URL {
			t.Fatalf("%v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		f := exchangetest.NewFakeClef(t)
		ctx, cancel := context.WithCancel(context.Background())
		f.OnSign = func() bool { cancel(); return false }
		err := sign(f, ctx, 0)
		var we *WaitError
		if !errors.As(err, &we) || !we.Cancelled || err.Error() != "cancelled while waiting for approval in clef at "+f.URL {
			t.Fatalf("%v", err)
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		url := "http://" + l.Addr().String()
		l.Close()
		_, err = Sign(context.Background(), NewClef(url, 0).Key(demoAddr), testDomain, m)
		if err == nil || !strings.Contains(err.Error(), "cannot be reached (is clef running?)") || strings.Contains(err.Error(), "Post") {
			t.Fatalf("%v", err)
		}
	})
}

// TestClefIPC: clef's IPC socket gets the same JSON-RPC request, one JSON
// value each way.
func TestClefIPC(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "clef.ipc")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	got := make(chan string, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		var req struct {
			Method string            `json:"method"`
			Params []json.RawMessage `json:"params"`
		}
		if json.NewDecoder(c).Decode(&req) != nil || len(req.Params) != 2 {
			got <- "unreadable"
			return
		}
		got <- req.Method + " " + string(req.Params[0])
		sig, err := exchangetest.SignTypedDataJSON(exchangetest.DemoKeyHex, req.Params[1])
		if err != nil {
			return
		}
		_ = json.NewEncoder(c).Encode(map[string]any{"jsonrpc": "2.0", "id": 1, "result": hexutil.Encode(sig)})
	}()
	src, err := ParseSource("clef:" + sock)
	if err != nil {
		t.Fatal(err)
	}
	op, err := Opening{Account: demoAddr}.Open(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	k, _ := op.Load()
	if _, err := Sign(context.Background(), k, testDomain, demoTransfer()); err != nil {
		t.Fatal(err)
	}
	if m := <-got; m != `account_signTypedData "`+demoAddr.Hex()+`"` {
		t.Fatalf("clef got %s", m)
	}
}

// commandKey is the test binary as a fake signing command in mode.
func commandKey(t *testing.T, wait time.Duration, mode string, words ...string) *CommandKey {
	w, err := SplitCommand(exchangetest.FakeSignCommand(mode, words...))
	if err != nil {
		t.Fatal(err)
	}
	return NewCommandKey(demoAddr, w, startChild, wait)
}

// TestCommandSigns: the typed data reaches the command in a private file
// for {file}, else on stdin; its signature passes Sign's check.
func TestCommandSigns(t *testing.T) {
	for _, words := range [][]string{{"{file}"}, nil} {
		k := commandKey(t, 0, "sign", words...)
		if got := Awaiting(k); !strings.HasPrefix(got, "the signing command ") {
			t.Fatalf("awaiting %q", got)
		}
		sig, err := Sign(context.Background(), k, testDomain, demoTransfer())
		if err != nil || sig.Signer != demoAddr {
			t.Fatalf("%v: %+v, %v", words, sig, err)
		}
	}
}

// TestCommandLeavingAHelperSigns: a signing command that ends well but
// leaves a helper it started (an agent) holding its output is not taken
// for one that failed: its signature is read once its pipes' wait ends.
func TestCommandLeavingAHelperSigns(t *testing.T) {
	k := commandKey(t, 0, "sign-leave")
	k.pipesWait = 100 * time.Millisecond
	sig, err := Sign(context.Background(), k, testDomain, demoTransfer())
	if err != nil || sig.Signer != demoAddr {
		t.Fatalf("%+v, %v", sig, err)
	}
}

// TestCommandFailureCutsAPhrase: a signing command's output that repeats
// a recovery phrase (a wrapper's `set -x` trace of `--mnemonic "…"`) is
// said without it, on stderr and on stdout, as a key's hex digits are cut;
// prose of as many words is said as it is.
func TestCommandFailureCutsAPhrase(t *testing.T) {
	const phrase = "legal winner thank year wave sausage worth useful legal winner thank yellow"
	out := "+ signer --mnemonic " + phrase + " --key 0x" + exchangetest.DemoKeyHex
	k := commandKey(t, 0, "refuse")
	for _, msg := range []string{k.failed(errors.New("exit status 1"), out).Error(), outputSummary(out)} {
		if strings.Contains(msg, "sausage") || strings.Contains(msg, exchangetest.DemoKeyHex[:16]) || !strings.Contains(msg, "+ signer --…") {
			t.Errorf("the output said repeats the phrase or the key: %q", msg)
		}
	}
	// A hardware wallet's error is prose of as many words: said whole, it
	// says what to do (it was "…").
	const ledger = "Please unlock your Ledger device and open the Ethereum app then retry from your laptop"
	if msg := k.failed(errors.New("exit status 1"), ledger+"\n").Error(); !strings.Contains(msg, ": "+ledger) {
		t.Errorf("the hardware wallet's error is said as %q", msg)
	}
}

// TestCommandFailures: exiting non-zero, printing no signature, another
// key's signature, a wait that runs out or is cancelled: each one clean
// line, the command's stderr cleaned and cut, no key repeated.
func TestCommandFailures(t *testing.T) {
	m := demoTransfer()
	t.Run("refused", func(t *testing.T) {
		_, err := Sign(context.Background(), commandKey(t, 0, "refuse"), testDomain, m)
		var se *SourceError
		if !errors.As(err, &se) || !se.Refused {
			t.Fatalf("%v", err)
		}
		msg := err.Error()
		if !strings.Contains(msg, "exited with status 1: Error: user rejected the request key 0xac0974be…") {
			t.Errorf("%q", msg)
		}
		if strings.ContainsAny(msg, "\x1b\r\n\u202e") || strings.Contains(msg, exchangetest.DemoKeyHex[:16]) {
			t.Errorf("not cleaned: %q", msg)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		_, err := Sign(context.Background(), commandKey(t, 0, "garbage", "{file}"), testDomain, m)
		if err == nil || !strings.Contains(err.Error(), `printed no signature on its standard output (it must print 0x and 130 hex digits, and nothing else): it printed 22 bytes, "Signature: maybe later"`) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("another key", func(t *testing.T) {
		_, err := Sign(context.Background(), commandKey(t, 0, "sign-other", "{file}"), testDomain, m)
		if !errors.Is(err, ErrWrongSigner) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		_, err := Sign(context.Background(), commandKey(t, 100*time.Millisecond, "hang"), testDomain, m)
		var we *WaitError
		if !errors.As(err, &we) || we.Cancelled || !strings.Contains(err.Error(), "no signature after waiting 100ms for the signing command") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		sock := filepath.Join(t.TempDir(), "s")
		l, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			// The command is running once it connects.
			if c, err := l.Accept(); err == nil {
				c.Close()
			}
			cancel()
		}()
		_, err = Sign(ctx, commandKey(t, 0, "hang", sock), testDomain, m)
		var we *WaitError
		if !errors.As(err, &we) || !we.Cancelled {
			t.Fatalf("%v", err)
		}
	})
	t.Run("not found", func(t *testing.T) {
		k := NewCommandKey(demoAddr, []string{filepath.Join(t.TempDir(), "no-such-signer")}, startChild, 0)
		_, err := Sign(context.Background(), k, testDomain, m)
		var se *SourceError
		if !errors.As(err, &se) || se.Refused || !strings.Contains(err.Error(), "could not run") {
			t.Fatalf("%v", err)
		}
	})
}

// TestOpeningCountsCommandSignatures: a signature a signing command is
// making is counted by Opening.Running until its process has ended and its
// typed data file is removed, so the console, waiting on it as it quits,
// leaves neither behind.
func TestOpeningCountsCommandSignatures(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	sock := filepath.Join(t.TempDir(), "s")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var running Running
	o := Opening{Account: demoAddr, SignCommand: exchangetest.FakeSignCommand("hang", sock, "{file}"), Start: startChild, Running: &running}
	op, err := o.Open(context.Background(), Source{Kind: SourceCommand})
	if err != nil {
		t.Fatal(err)
	}
	k, err := op.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	signed := make(chan error, 1)
	go func() {
		_, err := Sign(ctx, k, testDomain, demoTransfer())
		signed <- err
	}()
	c, err := l.Accept() // the command is running, its file written
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if left, _ := os.ReadDir(tmp); len(left) != 1 {
		t.Fatalf("while the command runs, %d entries in TMPDIR, want its directory", len(left))
	}
	cancel()
	running.Close(time.Minute)
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("the wait ended with %s still in TMPDIR", left[0].Name())
	}
	var we *WaitError
	if err := <-signed; !errors.As(err, &we) || !we.Cancelled {
		t.Fatalf("%v", err)
	}
	// Once closed, a signature that would start is refused: the console is
	// ending, and nothing would wait for it.
	if _, err := k.SignTypedData(context.Background(), testDomain, demoTransfer()); !errors.As(err, &we) || !we.Cancelled {
		t.Fatalf("a signature begun after Close: %v", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("a signature begun after Close left %s in TMPDIR", left[0].Name())
	}
}
