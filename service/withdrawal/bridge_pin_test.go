package withdrawal_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/withdrawal"
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
	// Plain mode's answer typed back is repeated as typed text is: a
	// private key pasted there by mistake, or an escape, never whole.
	const key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	for _, typed := range []string{key, "0x" + key, "0x12\x1b[2J\u202e"} {
		if _, err := changed.Accept(typed); err == nil || strings.Contains(err.Error(), key[:9]) || strings.ContainsAny(err.Error(), "\x1b\u202e") {
			t.Errorf("Accept(%q) refused as %q, want the answer cut and cleaned", typed, err)
		}
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
	// WriteStateFile's temporary files are .NAME.*; the lock file stays.
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(pins), "."+filepath.Base(pins)+".*")); len(leftovers) != 0 {
		t.Fatalf("temporary files left: %v", leftovers)
	}
}

// TestBridgePinsReadBackChecked: the bridge-pin file is read back as
// answers are: a pin that is not an address refuses the file.
func TestBridgePinsReadBackChecked(t *testing.T) {
	pins := filepath.Join(t.TempDir(), "bridge.json")
	exchangetest.Must(t, os.WriteFile(pins, []byte(`{"sandbox":{"address":"0x6e3a\u001b[2J","first_seen":"2026-03-01T10:00:00Z"}}`), 0o600))
	env := config.Environment{Name: "sandbox"} // no pin in config: the recorded one decides
	if err := withdrawal.RecordBridge(env, pins, sandbox.BridgeFundingAddress, t0); err == nil || !strings.Contains(err.Error(), "the address for sandbox is not an EVM address") || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("a planted pin: %v", err)
	}
}

// TestBridgePinsHuge: recorded bridge addresses of more than 1 MiB (a
// sparse file costs no disk) are refused before they are read whole, and
// so is the withdrawal that would check them, saying what to do.
func TestBridgePinsHuge(t *testing.T) {
	pins := filepath.Join(t.TempDir(), "bridge.json")
	exchangetest.Must(t, os.WriteFile(pins, nil, 0o600))
	exchangetest.Must(t, os.Truncate(pins, 8<<20))
	err := withdrawal.RecordBridge(config.Environment{Name: "sandbox"}, pins, sandbox.BridgeFundingAddress, t0)
	if err == nil || !strings.Contains(err.Error(), pins+" holds more than 1024 KiB") || !strings.Contains(err.Error(), "move it away") {
		t.Fatalf("8 MiB of recorded bridge addresses: %v", err)
	}
}

// TestConfigNamesTheJournalRecords: an environment name or domain_name the
// journal and the bridge pins could not read back is refused at load, so
// it never stops a withdrawal at its journal; a pin for such a name is
// never written.
func TestConfigNamesTheJournalRecords(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"a space in the name":             `[env."my env"]`,
		"a non-ASCII name":                `[env."prodé"]`,
		"an invisible in the domain name": "[env.prod]\ndomain_name = \"Service\u200bExchange\"",
		"a 67-character domain name":      "[env.prod]\ndomain_name = \"" + strings.Repeat("x", 67) + "\"",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "config.toml")
			body += "\nauth_url = \"http://127.0.0.1:1\"\nbase_url = \"http://127.0.0.1:1\"\nmarket_data_url = \"http://127.0.0.1:1\"\nchain_id = 327\n"
			exchangetest.Must(t, os.WriteFile(path, []byte(body), 0o600))
			if _, err := config.LoadConfig(path, true); err == nil {
				t.Fatal("loaded")
			}
		})
	}
	pins := filepath.Join(dir, "bridge.json")
	if err := withdrawal.RecordBridge(config.Environment{Name: "my env"}, pins, sandbox.BridgeFundingAddress, t0); err == nil {
		t.Fatal("a pin for an environment name the reader refuses was written")
	}
	if err := withdrawal.RecordBridge(config.Environment{Name: "prod"}, pins, sandbox.BridgeFundingAddress, t0); err != nil {
		t.Fatalf("the other environments are locked out: %v", err)
	}
}

// TestBridgePinsNamedEscaped: recorded bridge addresses refused (not JSON,
// a pin not an address) name their file escaped (safetext.Shown), as a
// too large one did: its folder is the environment's (XDG_STATE_HOME),
// and cleaned, x NBSP y read as another folder, "x y".
func TestBridgePinsNamedEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\u00a0y")
	exchangetest.Must(t, os.Mkdir(dir, 0o700))
	pins := filepath.Join(dir, "bridge.json")
	for name, body := range map[string]string{
		"not JSON":       `{"sandbox":`,
		"not an address": `{"sandbox":{"address":"0x6e3a","first_seen":"2026-03-01T10:00:00Z"}}`,
	} {
		exchangetest.Must(t, os.WriteFile(pins, []byte(body), 0o600))
		err := withdrawal.RecordBridge(config.Environment{Name: "sandbox"}, pins, sandbox.BridgeFundingAddress, t0)
		if err == nil || !strings.Contains(err.Error(), `x\u00a0y`) || strings.Contains(err.Error(), "\u00a0") {
			t.Errorf("%s: %v, want the file named escaped", name, err)
		}
	}
}
