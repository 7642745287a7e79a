package exchange_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/config"
	"github.com/svcwallet/svcwallet/internal/exchange"
	"github.com/svcwallet/svcwallet/internal/sandbox"
	"github.com/svcwallet/svcwallet/internal/withdrawal"
)

func TestSandboxPinsItsOwnBridge(t *testing.T) {
	if config.SandboxBridgeFundingAddress != sandbox.BridgeFundingAddress {
		t.Fatalf("the sandbox environment pins %s, the sandbox's bridge is %s", config.SandboxBridgeFundingAddress, sandbox.BridgeFundingAddress)
	}
}

// TestCheckBridge: a pinned environment accepts only its address; an
// unpinned one shows the first as a first use without recording it, records
// it when a withdrawal to it is accepted (RecordBridge, 0600), accepts it since that date, and
// refuses a change until ConfirmBridge replaces the record it was shown.
func TestCheckBridge(t *testing.T) {
	const bridge, other = sandbox.BridgeFundingAddress, "0x5FbDB2315678afecb367f032d93F642f64180aa3"
	pinned := config.Environment{Name: "prod", BridgeFundingAddress: bridge}
	pins := withdrawal.BridgePinsPath(t.TempDir())
	if tr, err := withdrawal.CheckBridge(pinned, pins, strings.ToLower(bridge), t0); err != nil || !tr.Pinned {
		t.Fatalf("pinned address refused: %+v %v", tr, err)
	}
	var changed *withdrawal.BridgeChangedError
	_, err := withdrawal.CheckBridge(pinned, pins, other, t0)
	if !errors.As(err, &changed) || !changed.Pinned || !strings.Contains(err.Error(), bridge) || !strings.Contains(err.Error(), other) {
		t.Fatalf("swapped pinned address: %v", err)
	}
	if withdrawal.ConfirmBridge(pinned, pins, bridge, other, t0) == nil {
		t.Fatal("a pinned address was replaced by a confirmation")
	}

	tofu := config.Environment{Name: "testnet"}
	tr, err := withdrawal.CheckBridge(tofu, pins, bridge, t0)
	if err != nil || !tr.FirstUse {
		t.Fatalf("first use: %+v %v", tr, err)
	}
	if _, err := os.Stat(pins); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an address only shown was recorded: %v", err)
	}
	if err := withdrawal.RecordBridge(tofu, pins, bridge, t0); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(pins); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("record: %v %v", st, err)
	}
	later := t0.Add(72 * time.Hour)
	if tr, err := withdrawal.CheckBridge(tofu, pins, bridge, later); err != nil || tr.FirstUse || !tr.SeenSince.Equal(t0) {
		t.Fatalf("seen again: %+v %v", tr, err)
	}
	// Another environment has its own record.
	if err := withdrawal.RecordBridge(config.Environment{Name: "other"}, pins, other, later); err != nil {
		t.Fatalf("second environment: %v", err)
	}
	_, err = withdrawal.CheckBridge(tofu, pins, other, later)
	if !errors.As(err, &changed) || changed.Pinned || !changed.Since.Equal(t0) || changed.Expected != bridge || changed.Seen != other {
		t.Fatalf("changed address: %v", err)
	}
	if _, err := withdrawal.CheckBridge(tofu, pins, other, later); err == nil {
		t.Fatal("a refused address was recorded")
	}
	if err := withdrawal.RecordBridge(tofu, pins, other, later); err == nil {
		t.Fatal("signing recorded a changed address")
	}
	// Accepting the change (--accept-bridge) takes exactly the address seen,
	// and records nothing itself; a pinned one is never accepted.
	if tr, err := changed.Accept(strings.ToLower(other)); err != nil || tr.Replaces != bridge || tr.Address != other ||
		!strings.Contains(tr.Note(), "replaces "+bridge) {
		t.Fatalf("accepted: %+v %v", tr, err)
	}
	if _, err := changed.Accept(bridge); err == nil || !strings.Contains(err.Error(), "not the accepted "+bridge) {
		t.Fatalf("another address accepted: %v", err)
	}
	if _, err := (&withdrawal.BridgeChangedError{Env: "prod", Expected: bridge, Seen: other, Pinned: true}).Accept(other); err == nil {
		t.Fatal("a pinned address accepted")
	}
	if err := withdrawal.RecordBridge(tofu, pins, other, later); err == nil {
		t.Fatal("accepting recorded the change")
	}
	// A confirmation made on a screen that showed another record than the
	// one now on disk (changed meanwhile) replaces nothing.
	if err := withdrawal.ConfirmBridge(tofu, pins, "0x00000000219ab540356cBB839Cbe05303d7705Fa", other, later); err == nil {
		t.Fatal("a stale confirmation replaced the record")
	}
	if err := withdrawal.ConfirmBridge(tofu, pins, bridge, other, later); err != nil {
		t.Fatal(err)
	}
	if tr, err := withdrawal.CheckBridge(tofu, pins, other, later); err != nil || !tr.SeenSince.Equal(later) {
		t.Fatalf("after confirmation: %+v %v", tr, err)
	}
	if _, err := withdrawal.CheckBridge(tofu, pins, "0xnot an address\n", later); err == nil {
		t.Fatal("a malformed address was accepted")
	}
	if leftovers, _ := filepath.Glob(pins + ".*"); len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

// skewedServer is the sandbox on t0 with /time shifted by skew; it returns
// the environment and the expiration of the last wallet login it received.
func skewedServer(t *testing.T, skew time.Duration) (config.Environment, *atomic.Int64) {
	t.Helper()
	ex := sandbox.New(sandbox.Options{Now: func() time.Time { return t0 }})
	var loginExp atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case exchange.PathTime:
			json.NewEncoder(w).Encode(exchange.ServerTime{ServerTime: t0.Add(skew).UnixMilli()})
			return
		case exchange.PathWalletLogin:
			body, _ := io.ReadAll(r.Body)
			var req exchange.WalletLoginRequest
			if json.Unmarshal(body, &req) == nil {
				var exp int64
				json.Unmarshal([]byte(req.Signature.Expiration), &exp)
				loginExp.Store(exp)
			}
			r.Body = io.NopCloser(strings.NewReader(string(body)))
		}
		ex.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID), &loginExp
}

// TestWalletLoginRefusesSkewedClock: a server clock 30 days ahead or 3
// minutes behind gets no login signature ("check your clock", naming the
// difference); 90 seconds either way logs in, the expiry counted from the
// earlier clock.
func TestWalletLoginRefusesSkewedClock(t *testing.T) {
	key := mustKey(t, sandbox.DemoPrivateKey)
	for _, tc := range []struct {
		skew time.Duration
		want string
	}{
		{30 * 24 * time.Hour, "720h0m0s ahead of"},
		{-3 * time.Minute, "3m0s behind"},
		{90 * time.Second, ""},
		{-90 * time.Second, ""},
	} {
		env, loginExp := skewedServer(t, tc.skew)
		c := exchange.New(env, exchange.Options{Now: func() time.Time { return t0 }})
		_, err := c.Login(context.Background(), exchange.Wallet(key))
		if tc.want == "" {
			earlier := t0
			if tc.skew < 0 {
				earlier = t0.Add(tc.skew)
			}
			if err != nil || loginExp.Load() != earlier.Add(4*time.Minute).UnixNano() {
				t.Errorf("skew %s: %v, expiration %d, want %d", tc.skew, err, loginExp.Load(), earlier.Add(4*time.Minute).UnixNano())
			}
			continue
		}
		var skew *exchange.ClockSkewError
		if !errors.As(err, &skew) || !strings.Contains(err.Error(), "check your clock") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("skew %s: %v", tc.skew, err)
		}
		if loginExp.Load() != 0 {
			t.Errorf("skew %s: a login signature was sent", tc.skew)
		}
	}
}

// TestTransferExpiration: a quote's Transfer expires TransferMargin after
// the quote, never more than 15 minutes; a quote expiring years ahead of the
// service's clock is not signed at all.
func TestTransferExpiration(t *testing.T) {
	q := exchange.Quote{ExpiresAt: t0.Add(time.Minute)}
	if got, err := withdrawal.TransferExpiration(q, t0); err != nil || !got.After(q.ExpiresAt) || got.After(q.ExpiresAt.Add(15*time.Minute)) {
		t.Fatalf("expiration %s (%v) for a quote expiring %s", got, err, q.ExpiresAt)
	}
	far := exchange.Quote{ExpiresAt: t0.Add(3 * 365 * 24 * time.Hour)}
	if got, err := withdrawal.TransferExpiration(far, t0); err == nil {
		t.Fatalf("a quote expiring in three years is signed until %s", got)
	}
}
