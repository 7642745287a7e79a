package withdrawal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"

	"github.com/ethereum/go-ethereum/common"
)

// bridgePinsFile holds, per environment, the first bridge funding address
// seen (trust on first use), next to the journal in the state directory.
const bridgePinsFile = "bridge_pins.json"

// BridgeTrust says why the bridge funding address of withdrawal-info may be
// signed as the Transfer's toAccount.
type BridgeTrust struct {
	Address   string    // the address withdrawal-info gave, as checked
	Pinned    bool      // equal to the environment's bridge_funding_address
	FirstUse  bool      // seen for the first time: recorded once the service accepts a withdrawal to it (RecordBridge)
	SeenSince time.Time // when it was first seen (zero when pinned)
	// Replaces is the recorded address this one replaces: the user
	// accepted the change as announced (BridgeChangedError.Accept), and it
	// is recorded (ConfirmBridge) once the withdrawal is confirmed.
	Replaces string
}

// BridgeChangedError stops a withdrawal whose bridge funding address is not
// the pinned or recorded one: a swapped address would send the funds elsewhere.
type BridgeChangedError struct {
	Env      string
	Expected string    // the pinned or recorded address
	Seen     string    // what withdrawal-info gave
	Pinned   bool      // Expected comes from the config (no confirmation possible)
	Since    time.Time // when Expected was first seen (recorded only)
	// RecordedFor names the other environment Expected was recorded for,
	// on Env's chain id (pinFor); "" when it is Env's own.
	RecordedFor string
	// Signed: found by the check made again once the Transfer was signed
	// (sendSigned), so "nothing was signed" would be untrue.
	Signed bool
}

func (e *BridgeChangedError) Error() string {
	if e.Pinned {
		return fmt.Sprintf("The service gave bridge funding address %s, but environment %q pins %s (bridge_funding_address in the config): %s; check the environment's base_url, or update the config if the exchange announced a new address",
			e.Seen, e.Env, e.Expected, e.unsent())
	}
	used := fmt.Sprintf("environment %q", e.Env)
	if e.RecordedFor != "" {
		used = fmt.Sprintf("environment %q, the same service as %q (one chain id),", e.RecordedFor, e.Env)
	}
	return fmt.Sprintf("The service gave bridge funding address %s, but %s has been used for %s since %s: %s; confirm the change only if the exchange announced it",
		e.Seen, e.Expected, used, e.Since.UTC().Format("2006-01-02"), e.unsent())
}

// unsent says what became of the withdrawal the change stopped.
func (e *BridgeChangedError) unsent() string {
	if e.Signed {
		return signedUnsent
	}
	return "nothing was signed"
}

// BridgeChangeWarning is what every face says before the user may trust a
// changed bridge funding address.
const BridgeChangeWarning = "Your withdrawal pays this address. A changed address is what a swapped base_url, a hostile proxy or a compromised server would show. Trust it only if the exchange announced the change."

// Accept is the trust of the address the service gave when the user
// accepted exactly that address as an announced change of the recorded
// one (svcwallet withdraw --accept-bridge ADDRESS; the console's
// confirmation screen is the other way). It refuses an accepted address
// that is not the one the service gave, and a change of an address pinned
// in the config, which only the config changes.
func (e *BridgeChangedError) Accept(accepted string) (BridgeTrust, error) {
	switch {
	case e.Pinned:
		return BridgeTrust{}, e
	case !sameAddress(accepted, e.Seen):
		return BridgeTrust{}, fmt.Errorf("the service gave bridge funding address %s, not the accepted %s: nothing was signed or recorded", e.Seen, acceptedShown(accepted))
	}
	return BridgeTrust{Address: e.Seen, SeenSince: e.Since, Replaces: e.Expected}, nil
}

// acceptedShown is a refused accepted address as the refusal repeats it:
// whole when it has an address's shape, so the difference shows; else as
// any typed text (safetext.Quoted), since plain mode's answer may be a
// private key pasted in the wrong place, or hold escapes.
func acceptedShown(accepted string) string {
	if common.IsHexAddress(accepted) {
		return accepted
	}
	return safetext.Quoted(accepted)
}

type bridgePin struct {
	Address   string    `json:"address"`
	FirstSeen time.Time `json:"first_seen"`
	// ChainID is the environment's when recorded; 0 in pins an earlier
	// version wrote, which are their name's alone.
	ChainID uint64 `json:"chain_id,omitempty"`
}

// pinFor is the address recorded for env: its own, else, since two names
// on one chain id are one service (as journal.Owner holds), the one first
// recorded for another name on env's chain id, by naming that name ("" when
// it is env's own).
func pinFor(pins map[string]bridgePin, env config.Environment) (pin bridgePin, by string, ok bool) {
	if pin, ok := pins[env.Name]; ok {
		return pin, "", true
	}
	chain := env.ChainID
	if chain == 0 {
		return bridgePin{}, "", false
	}
	for name, p := range pins {
		if p.ChainID == chain && (!ok || p.FirstSeen.Before(pin.FirstSeen) || p.FirstSeen.Equal(pin.FirstSeen) && name < by) {
			pin, by, ok = p, name, true
		}
	}
	return pin, by, ok
}

// BridgePinsPath is where the recorded bridge addresses live for a state
// directory; "" when there is none (nothing is then recorded).
func BridgePinsPath(stateDir string) string {
	if stateDir == "" {
		return ""
	}
	return filepath.Join(stateDir, bridgePinsFile)
}

// CheckBridge decides whether seen may be signed as the Transfer's toAccount
// for env: equal to the pinned address, or to the one recorded for env, or
// a first use when env has none (trust on first use: recorded by
// RecordBridge once the service accepts a withdrawal to it, not when it is
// only shown or signed). Any other address is a *BridgeChangedError; one no
// bridge can hold (UnusableBridge) is refused, pinned or not. It writes
// nothing.
func CheckBridge(env config.Environment, pinsPath, seen string, now time.Time) (BridgeTrust, error) {
	return checkBridge(env, pinsPath, seen, now, false)
}

// RecordBridge checks seen again and records it when it is env's first:
// called once the service accepted a withdrawal to it, so the address
// trusted on first use is one that took a withdrawal, never one refused
// (which would then refuse the real one as a change).
func RecordBridge(env config.Environment, pinsPath, seen string, now time.Time) error {
	_, err := checkBridge(env, pinsPath, seen, now, true)
	return err
}

func checkBridge(env config.Environment, pinsPath, seen string, now time.Time, record bool) (BridgeTrust, error) {
	if !common.IsHexAddress(seen) {
		return BridgeTrust{}, fmt.Errorf("the service's bridge funding address %q is not an EVM address: nothing was signed", seen)
	}
	if why := UnusableBridge(seen, ""); why != "" {
		if env.BridgeFundingAddress != "" && sameAddress(env.BridgeFundingAddress, seen) {
			return BridgeTrust{}, fmt.Errorf("environment %q pins bridge funding address %s (bridge_funding_address in the config), which %s: nothing was signed; correct the config", env.Name, seen, why)
		}
		return BridgeTrust{}, fmt.Errorf("the service gave bridge funding address %s, which %s: nothing was signed; check the environment's base_url, and tell the exchange", seen, why)
	}
	if env.BridgeFundingAddress != "" {
		if !sameAddress(env.BridgeFundingAddress, seen) {
			return BridgeTrust{}, &BridgeChangedError{Env: env.Name, Expected: env.BridgeFundingAddress, Seen: seen, Pinned: true}
		}
		return BridgeTrust{Address: seen, Pinned: true}, nil
	}
	if pinsPath == "" {
		return BridgeTrust{Address: seen, FirstUse: true, SeenSince: now}, nil
	}
	if record {
		unlock, err := lockPins(pinsPath)
		if err != nil {
			return BridgeTrust{}, err
		}
		defer unlock()
	}
	pins, err := readBridgePins(pinsPath)
	if err != nil {
		return BridgeTrust{}, err
	}
	pin, by, ok := pinFor(pins, env)
	switch {
	case !ok && !record:
		return BridgeTrust{Address: seen, FirstUse: true, SeenSince: now}, nil
	case !ok:
		pins[env.Name] = bridgePin{Address: seen, FirstSeen: now.UTC(), ChainID: env.ChainID}
		if err := writePins(pinsPath, pins); err != nil {
			return BridgeTrust{}, err
		}
		return BridgeTrust{Address: seen, FirstUse: true, SeenSince: now}, nil
	case sameAddress(pin.Address, seen):
		if record && by == "" && pin.ChainID == 0 && env.ChainID != 0 {
			// A pin an earlier version wrote is its name's alone: taking a
			// withdrawal again under that name, it becomes the service's,
			// so a second name for it is held to it.
			pin.ChainID = env.ChainID
			pins[env.Name] = pin
			if err := writePins(pinsPath, pins); err != nil {
				return BridgeTrust{}, err
			}
		}
		return BridgeTrust{Address: seen, SeenSince: pin.FirstSeen}, nil
	}
	return BridgeTrust{}, &BridgeChangedError{Env: env.Name, Expected: pin.Address, Seen: seen, Since: pin.FirstSeen, RecordedFor: by}
}

// BridgeMovedError is a confirmation that came after the recorded address
// changed again: nothing was recorded, and the withdrawal needs a new review.
type BridgeMovedError struct{ Recorded string }

func (e *BridgeMovedError) Error() string {
	return fmt.Sprintf("the recorded bridge address changed to %s meanwhile: nothing was recorded", e.Recorded)
}

// ConfirmBridge replaces env's recorded address, expected (the one the user
// was shown), with seen after the user confirmed the change explicitly. A
// record that is no longer expected (changed meanwhile) is not replaced;
// a pinned environment cannot be confirmed.
func ConfirmBridge(env config.Environment, pinsPath, expected, seen string, now time.Time) error {
	if env.BridgeFundingAddress != "" {
		return errors.New("this environment pins its bridge funding address in the config: change bridge_funding_address there")
	}
	if pinsPath == "" || !common.IsHexAddress(seen) {
		return errors.New("nothing to confirm")
	}
	if why := UnusableBridge(seen, ""); why != "" {
		return fmt.Errorf("bridge funding address %s %s: nothing was recorded", seen, why)
	}
	unlock, err := lockPins(pinsPath)
	if err != nil {
		return err
	}
	defer unlock()
	pins, err := readBridgePins(pinsPath)
	if err != nil {
		return err
	}
	if pin, _, ok := pinFor(pins, env); ok && !sameAddress(pin.Address, expected) {
		return &BridgeMovedError{Recorded: pin.Address}
	}
	pins[env.Name] = bridgePin{Address: seen, FirstSeen: now.UTC(), ChainID: env.ChainID}
	return writePins(pinsPath, pins)
}

// UnusableBridge says why hexAddr can never be a bridge's funding address,
// or "": one no one holds the key of (exchange.Keyless: the zero address, a
// burn address) or, when fundingAccount is given, the paying account
// itself. A Transfer to it would lose the funds or pay nobody.
func UnusableBridge(hexAddr, fundingAccount string) string {
	if why := exchange.Keyless(exchange.ChainTypeEVM, hexAddr); why != "" {
		return why
	}
	if fundingAccount != "" && common.IsHexAddress(fundingAccount) && common.HexToAddress(fundingAccount) == common.HexToAddress(hexAddr) {
		return "is your own funding account: the Transfer would pay itself, not the bridge"
	}
	return ""
}

func sameAddress(a, b string) bool {
	return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) && common.IsHexAddress(a)
}

// maxBridgePins bounds the recorded bridge addresses: one an environment,
// a few hundred bytes each.
const maxBridgePins = 1 << 20

func readBridgePins(path string) (map[string]bridgePin, error) {
	pins := map[string]bridgePin{}
	b, err := osguard.ReadStateFileAtMost(path, maxBridgePins)
	if errors.Is(err, os.ErrNotExist) {
		return pins, nil
	}
	if tl := new(osguard.TooLargeError); errors.As(err, &tl) {
		return nil, fmt.Errorf("the recorded bridge addresses are not svcwallet's: %w, and svcwallet's hold a few hundred bytes an environment: check the file, or move it away to record them anew", err)
	}
	if err != nil {
		return nil, fmt.Errorf("read the recorded bridge addresses: %w", err)
	}
	if err := exchange.Decode(b, &pins); err != nil {
		return nil, fmt.Errorf("the recorded bridge addresses in %s are unreadable (%v): move the file away to start over", safetext.Shown(path), err)
	}
	// The file is read back as an answer is: what it holds is compared,
	// shown and signed against.
	if err := checkBridgePins(pins); err != nil {
		return nil, fmt.Errorf("the recorded bridge addresses in %s are not svcwallet's (%v): check the file, or move it away to record them anew", safetext.Shown(path), err)
	}
	return pins, nil
}

// checkBridgePins holds recorded pins to their shapes: environment names
// are tokens and every address an EVM address. The writer refuses what the
// reader would, so one bad entry never locks out the others.
func checkBridgePins(pins map[string]bridgePin) error {
	for env, pin := range pins {
		switch {
		case env == "" || len(env) > safetext.MaxNameLen || !safetext.IsToken(env):
			return fmt.Errorf("an environment name %.24q that is not a token", safetext.Text(env))
		case exchange.ValidateAddress(exchange.ChainTypeEVM, pin.Address) != nil:
			return fmt.Errorf("the address for %s is not an EVM address", env)
		}
	}
	return nil
}

// lockPins holds the recorded addresses' lock (FILE.lock) while they are
// read and written back: another process recording meanwhile (a first use
// on another environment) would otherwise be written over, and that
// environment's next address taken as a first use again, unchecked.
func lockPins(path string) (unlock func(), err error) {
	if unlock, err = osguard.LockBeside(path, osguard.Wait{Doing: "recording a bridge address in " + safetext.Shown(path)}); err != nil {
		return nil, fmt.Errorf("record the bridge address: %w", err)
	}
	return unlock, nil
}

// writePins is writeBridgePins; a test sees through it what is held while
// the file is written.
var writePins = writeBridgePins

// writeBridgePins replaces the file atomically (temp file, fsync, rename), 0600.
func writeBridgePins(path string, pins map[string]bridgePin) error {
	if err := checkBridgePins(pins); err != nil {
		return fmt.Errorf("record the bridge address: %w", err)
	}
	b, err := json.MarshalIndent(pins, "", "  ")
	if err != nil {
		return err
	}
	if err := osguard.WriteStateFile(path, append(b, '\n')); err != nil {
		return fmt.Errorf("record the bridge address: %w", err)
	}
	return nil
}
