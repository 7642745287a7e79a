package signer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// maxClefAnswer bounds a JSON-RPC answer read from clef.
const maxClefAnswer = 1 << 20

// Clef is go-ethereum's clef signer as a JSON-RPC client of its external
// API (account_list, account_signTypedData), over HTTP or its IPC socket.
// Its answers are untrusted: every signature goes through Sign's check.
type Clef struct {
	endpoint string
	http     *http.Client
	timeout  time.Duration
}

// NewClef talks to clef at endpoint (an http(s) URL or an IPC socket
// path, as ParseSource checked it); every request waits at most timeout
// (0: DefaultWait), as a person may be reading clef's prompt.
func NewClef(endpoint string, timeout time.Duration) *Clef {
	if timeout <= 0 {
		timeout = DefaultWait
	}
	// No client timeout: each call's context bounds it, so a person's
	// approval is not cut short by an HTTP default. No redirect is
	// followed: the typed data goes to the endpoint ParseSource checked,
	// never to a host a redirect names (one given directly may be refused).
	return &Clef{endpoint: endpoint, timeout: timeout, http: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

func (c *Clef) awaiting() string { return "approval in clef at " + c.endpoint }

// Accounts is clef's account_list: the addresses it holds (clef may ask
// its user to approve the listing).
func (c *Clef) Accounts(ctx context.Context) ([]common.Address, error) {
	var addrs []common.Address
	if err := c.call(ctx, "account_list", []any{}, &addrs); err != nil {
		return nil, err
	}
	return addrs, nil
}

// Key is clef's key for addr.
func (c *Clef) Key(addr common.Address) *ClefKey { return &ClefKey{clef: c, addr: addr} }

// ClefKey signs with one of clef's accounts: account_signTypedData with the
// whole typed data, so clef's rules and its approval prompt see every field.
type ClefKey struct {
	clef *Clef
	addr common.Address
}

func (k *ClefKey) Address() common.Address { return k.addr }

func (k *ClefKey) Awaiting() string { return k.clef.awaiting() }

func (k *ClefKey) SignTypedData(ctx context.Context, d Domain, m Message) ([65]byte, error) {
	var out [65]byte
	var sig hexutil.Bytes
	if err := k.clef.call(ctx, "account_signTypedData", []any{k.addr.Hex(), json.RawMessage(TypedDataJSON(d, m))}, &sig); err != nil {
		return out, err
	}
	if len(sig) != 65 {
		return out, &SourceError{By: k.Awaiting(), Text: fmt.Sprintf("answered a signature of %d bytes, not 65", len(sig))}
	}
	copy(out[:], sig)
	return out, nil
}

// rpcRequest and rpcAnswer are JSON-RPC 2.0 (clef speaks it as geth does).
type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      int    `json:"id"`
	Method  string `json:"method"`
	Params  []any  `json:"params"`
}

type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call makes one JSON-RPC call, waiting at most c.timeout, and decodes its
// result into out. Errors are worded for the user: a refusal, a wait that
// ended, clef unreachable, or clef's own message cleaned to one line.
func (c *Clef) call(ctx context.Context, method string, params []any, out any) error {
	cx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	body, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: 1, Method: method, Params: params})
	if err != nil {
		return err
	}
	var raw []byte
	if strings.Contains(c.endpoint, "://") {
		raw, err = c.postHTTP(cx, body)
	} else {
		raw, err = c.askIPC(cx, body)
	}
	switch {
	case ctx.Err() != nil:
		return &WaitError{Awaiting: c.awaiting(), Cancelled: true}
	case cx.Err() != nil:
		return &WaitError{Awaiting: c.awaiting(), After: c.timeout}
	case errors.As(err, new(redirectError)):
		return &SourceError{By: c.awaiting(), Text: err.Error()}
	case err != nil:
		// A *url.Error repeats the method and URL; its cause says it all.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return &SourceError{By: c.awaiting(), Text: "cannot be reached (is clef running?): " + safetext.Line(err.Error(), maxCommandError)}
	}
	var ans rpcAnswer
	if err := json.Unmarshal(raw, &ans); err != nil {
		return &SourceError{By: c.awaiting(), Text: "answered something that is not JSON-RPC: " + outputSummary(string(raw))}
	}
	if ans.Error != nil {
		msg := safetext.Line(safetext.Quoted(ans.Error.Message), maxCommandError)
		if strings.EqualFold(strings.TrimSpace(ans.Error.Message), "request denied") {
			return &SourceError{By: c.awaiting(), Text: "refused to sign (request denied)", Refused: true}
		}
		return &SourceError{By: c.awaiting(), Text: fmt.Sprintf("answered error %d: %s", ans.Error.Code, msg)}
	}
	if err := json.Unmarshal(ans.Result, out); err != nil || len(ans.Result) == 0 || string(ans.Result) == "null" {
		return &SourceError{By: c.awaiting(), Text: "answered " + method + " with an unreadable result: " + outputSummary(string(ans.Result))}
	}
	return nil
}

func (c *Clef) postHTTP(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 && res.StatusCode < 400 {
		return nil, redirectError("answered HTTP " + safetext.Line(res.Status, 40) + " to " + safetext.Line(res.Header.Get("Location"), 100) +
			": svcwallet follows no redirect for a signer; give clef's own endpoint")
	}
	raw, err := io.ReadAll(io.LimitReader(res.Body, maxClefAnswer))
	if err != nil {
		return nil, err
	}
	// clef answers JSON-RPC errors with 200; another status carries no
	// JSON-RPC answer (a proxy, a wrong port).
	if res.StatusCode != http.StatusOK && !json.Valid(raw) {
		return nil, fmt.Errorf("HTTP %s", res.Status)
	}
	return raw, nil
}

// redirectError is clef's endpoint answering with a redirect, not followed.
type redirectError string

func (e redirectError) Error() string { return string(e) }

// askIPC sends one request on clef's socket and reads one JSON answer.
func (c *Clef) askIPC(ctx context.Context, body []byte) ([]byte, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", c.endpoint)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if _, err := conn.Write(body); err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := json.NewDecoder(io.LimitReader(conn, maxClefAnswer)).Decode(&raw); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, errors.New("the socket closed without an answer")
	}
	return raw, nil
}
