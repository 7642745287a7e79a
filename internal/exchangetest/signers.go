package exchangetest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// The well-known development keys the sandbox's demo account and builder
// use: public, so a fake signer may hold them in clear.
const (
	DemoKeyHex  = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	OtherKeyHex = "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
)

// fakeSignEnv marks a test binary started as a fake signing command.
const fakeSignEnv = "FAKE_SIGN_COMMAND_CHILD"

// RunTests is a TestMain's body, whose result it exits with: in the test
// process it marks the environment and runs the tests (m.Run); in a child
// started from it (a signing command whose first word is os.Args[0]) it
// acts as a fake signing command chosen by its first argument:
//
//	sign [FILE]        sign the typed data in FILE (else stdin) with the demo key
//	sign-other [FILE]  the same with another key
//	refuse             exit 1 with an error on stderr holding escapes and a key
//	garbage            print something that is not a signature
//	hang [SOCKET]      connect to the unix SOCKET (if given), then never answer
//
// Every mode first checks that no SVCWALLET_* variable reached it and that a
// typed data FILE is private (0600 in a 0700 directory): exit 8 otherwise.
func RunTests(m *testing.M) int {
	// The test binary may start itself for other reasons (flags first).
	if os.Getenv(fakeSignEnv) != "" && len(os.Args) > 1 && fakeModes[os.Args[1]] {
		return fakeSign(os.Args[1:])
	}
	os.Setenv(fakeSignEnv, "1")
	return m.Run()
}

var fakeModes = map[string]bool{"sign": true, "sign-other": true, "sign-leave": true, "refuse": true, "garbage": true, "hang": true, "linger": true}

// FakeSignCommand is the signing command line that runs this test binary
// as the fake signing command in mode, with more words after it.
func FakeSignCommand(mode string, words ...string) string {
	return strings.Join(append([]string{os.Args[0], mode}, words...), " ")
}

func fakeSign(args []string) int {
	for _, kv := range os.Environ() {
		if strings.HasPrefix(strings.ToUpper(kv), "SVCWALLET_") {
			fmt.Fprintf(os.Stderr, "the signing command saw %s\n", kv[:strings.IndexByte(kv, '=')])
			return 8
		}
	}
	var in io.Reader = os.Stdin
	if len(args) > 1 && args[0] != "hang" {
		if err := privateFile(args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 8
		}
		f, err := os.Open(args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer f.Close()
		in = f
	}
	switch args[0] {
	case "sign", "sign-other", "sign-leave":
		keyHex := DemoKeyHex
		if args[0] == "sign-other" {
			keyHex = OtherKeyHex
		}
		b, err := io.ReadAll(in)
		if err != nil {
			return 2
		}
		sig, err := SignTypedDataJSON(keyHex, b)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Println(hexutil.Encode(sig))
		if args[0] == "sign-leave" {
			// A helper it starts (an agent) keeps its standard output
			// open after it has ended well.
			c := osguard.CommandContext(context.Background(), os.Args[0], "linger")
			c.Stdout = os.Stdout
			if err := c.Start(); err != nil {
				return 2
			}
		}
		return 0
	case "linger":
		time.Sleep(3 * time.Second)
		return 0
	case "refuse":
		fmt.Fprint(os.Stderr, "\x1b[31mError:\x1b[0m user rejected the request\r\nkey 0x"+DemoKeyHex+" \u202eevil\n")
		return 1
	case "garbage":
		fmt.Println("Signature: maybe later")
		return 0
	case "hang":
		if len(args) > 1 {
			if c, err := net.Dial("unix", args[1]); err == nil {
				defer c.Close()
			}
		}
		// Block on something the runtime does not take for a deadlock.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 2
		}
		_, _ = l.Accept()
		return 2
	}
	fmt.Fprintln(os.Stderr, "unknown mode")
	return 2
}

// privateFile checks that the typed data file is the owner's alone; on
// Windows, whose permission bits Go makes up, only that it is there.
func privateFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil || runtime.GOOS == "windows" {
		return err
	}
	di, err := os.Stat(filepath.Dir(path))
	if err != nil {
		return err
	}
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		return fmt.Errorf("typed data file %v in a %v directory: not private", fi.Mode().Perm(), di.Mode().Perm())
	}
	return nil
}

// FakeClef is a stand-in for clef's external API over HTTP: account_list
// and account_signTypedData, signing with KeyHex through the stock
// wallet's EIP-712 code (TypedDataHash). Its fields may be changed
// between requests.
type FakeClef struct {
	URL string
	mu  sync.Mutex
	// KeyHex signs; Accounts are what account_list answers (default: the
	// key's address).
	KeyHex   string
	Accounts []common.Address
	// Deny answers every signing request with clef's refusal.
	Deny bool
	// Raw, when set, is the result answered instead of a signature.
	Raw json.RawMessage
	// OnSign runs when a signing request arrives, before it is answered
	// (a test moves a fake clock, or cancels what waits); a false return
	// leaves the request unanswered until its client gives up.
	OnSign func() bool
	signed []TypedData
	calls  []string
}

// NewFakeClef serves a FakeClef signing with the demo key until the test ends.
func NewFakeClef(t testing.TB) *FakeClef {
	f := &FakeClef{KeyHex: DemoKeyHex}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// Signed is the typed data of each signing request, in order.
func (f *FakeClef) Signed() []TypedData {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]TypedData(nil), f.signed...)
}

// Calls is the method of each request, in order.
func (f *FakeClef) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *FakeClef) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	answer := func(result any, errMsg string) {
		out := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if errMsg != "" {
			out["error"] = map[string]any{"code": -32000, "message": errMsg}
		} else {
			out["result"] = result
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	}
	f.mu.Lock()
	f.calls = append(f.calls, req.Method)
	keyHex, accounts, deny, raw, onSign := f.KeyHex, f.Accounts, f.Deny, f.Raw, f.OnSign
	f.mu.Unlock()
	switch req.Method {
	case "account_list":
		if accounts == nil {
			accounts = []common.Address{KeyAddress(keyHex)}
		}
		answer(accounts, "")
	case "account_signTypedData":
		if len(req.Params) != 2 {
			answer(nil, "invalid argument 1: not typed data")
			return
		}
		td, err := ReadTypedData(req.Params[1])
		if err != nil {
			answer(nil, "invalid argument 1: not typed data")
			return
		}
		f.mu.Lock()
		f.signed = append(f.signed, td)
		f.mu.Unlock()
		if onSign != nil && !onSign() {
			<-r.Context().Done()
			return
		}
		switch {
		case deny:
			answer(nil, "Request denied")
		case raw != nil:
			answer(raw, "")
		default:
			sig, err := signTypedData(keyHex, td)
			if err != nil {
				answer(nil, err.Error())
				return
			}
			answer(hexutil.Encode(sig), "")
		}
	default:
		answer(nil, "the method "+req.Method+" does not exist/is not available")
	}
}

// CheapScryptN and CheapScryptP are the scrypt cost of the keystore files
// tests write: a sixteenth of geth's light cost, itself a tenth of the
// standard second. The format is the same whatever the cost (the signer's
// TestKeystoreWrittenAtStandardCost holds what is written outside tests).
const CheapScryptN, CheapScryptP = 1 << 8, 6

// CheapScrypt sets a test's keystore cost (the signer's ScryptN and
// ScryptP, passed in) to CheapScryptN and CheapScryptP until it ends.
func CheapScrypt(t testing.TB, n, p *int) {
	oldN, oldP := *n, *p
	*n, *p = CheapScryptN, CheapScryptP
	t.Cleanup(func() { *n, *p = oldN, oldP })
}
