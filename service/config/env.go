// Package config holds the environments svcwallet can talk to and the
// config file that names them (SPEC.md §9, D3), the explorer links of payout
// hashes, and the private state files svcwallet keeps beside its journal.
// It is the innermost domain package: the client is built from an
// Environment.
package config

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/signer"
)

// SessionCookie and HeaderAccountID are the spec's names for the session
// cookie and the account-id header, the defaults of every environment.
const (
	SessionCookie   = "svc"
	HeaderAccountID = "X-Service-Account-Id"
)

// DefaultFollowRate is the shared request budget of following, in requests
// a second, when the environment sets none.
const DefaultFollowRate = 5

// SandboxEnv is the name of the built-in environment served by the embedded sandbox.
const SandboxEnv = "sandbox"

// Environment is one deployment of the exchange (SPEC.md §9): its three hosts,
// its L2 chain id and its EIP-712 domain name.
type Environment struct {
	Name          string `toml:"-"`
	AuthURL       string `toml:"auth_url"`
	BaseURL       string `toml:"base_url"`
	MarketDataURL string `toml:"market_data_url"`
	ChainID       uint64 `toml:"chain_id"`
	DomainName    string `toml:"domain_name"`
	// CookieName and AccountIDHeader are the deployment's names for the
	// session cookie and the account-id header (SPEC.md writes svc and
	// X-Service-Account-Id, the defaults; a real deployment names them).
	CookieName      string `toml:"cookie_name"`
	AccountIDHeader string `toml:"account_id_header"`
	// ExplorerTx maps a chain name to a URL template for a payout hash, "{hash}" replaced.
	ExplorerTx map[string]string `toml:"explorer_tx"`
	// BridgeFundingAddress pins the Transfer's toAccount: a different
	// funding_address from withdrawal-info stops the withdrawal. Unset, the
	// first address seen is recorded (trust on first use).
	BridgeFundingAddress string `toml:"bridge_funding_address"`
	// FollowRate is the request budget, in requests a second, that following
	// withdrawals (the watch board, status with many ids) may spend on this
	// environment; 0 means config.DefaultFollowRate.
	FollowRate int `toml:"follow_rate"`
	// Signer is the key source of this environment's signatures and wallet
	// logins when --signer is not given (signer.ParseSource: keystore:ADDRESS,
	// a keystore file, env, clef:ENDPOINT, command).
	Signer string `toml:"signer"`
	// Account is the address signed with when --account is not given: what
	// a signing command cannot tell, or which of clef's accounts.
	Account string `toml:"account"`
	// SignCommand is the signing command of the command source, split into
	// words without a shell; {file} is replaced by the typed data file.
	SignCommand string `toml:"sign_command"`
	// SignTimeout bounds a signature awaited from clef or a signing command,
	// as a Go duration ("5m"); empty means signer.DefaultWait.
	SignTimeout string `toml:"sign_timeout"`
}

// ErrNoCommandAccount refuses a signing command without Account: the
// console's login and plain mode's say it alike.
var ErrNoCommandAccount = errors.New(`set account = "0x…" beside sign_command in the environment's config: a signing command cannot say whose key it holds`)

// maxChainID is 2^53 - 1: a chain id is written as a JSON number (the typed
// data's domain, env_chain_id), which JavaScript and jq read as a float.
const maxChainID = 1<<53 - 1

// ChainIDAboveExact says, after the number, why a chain id above maxChainID
// is refused, or is nil: the config and the sandbox's chain id hold to
// one bound, so a sandbox's printed config block loads.
func ChainIDAboveExact(id uint64) error {
	if id <= maxChainID {
		return nil
	}
	return fmt.Errorf("is above %d, the largest a JSON reader keeps exact: a wallet or script reading the typed data would sign for, or compare, another chain id; give the one the deployment names (325 production, 326 testnet, 327 staging)", uint64(maxChainID))
}

// Key-source bounds of sign_timeout.
const (
	minSignTimeout = time.Second
	maxSignTimeout = time.Hour
)

// SignWait is how long a signature from clef or a signing command may be
// awaited: sign_timeout, else signer.DefaultWait.
func (e Environment) SignWait() time.Duration {
	if d, err := time.ParseDuration(e.SignTimeout); err == nil && d > 0 {
		return d
	}
	return signer.DefaultWait
}

// validateKeys checks the environment's key-source settings.
func (e Environment) validateKeys() error {
	if e.Signer != "" {
		if _, err := signer.ParseSource(e.Signer); err != nil {
			return fmt.Errorf("environment %q: signer: %v", e.Name, err)
		}
	}
	if e.Account != "" && !common.IsHexAddress(e.Account) {
		return fmt.Errorf("environment %q: account %s is not an address (0x and 40 hex digits)", e.Name, safetext.NameQuoted(e.Account))
	}
	if e.SignCommand != "" {
		if err := signer.CheckSignCommand(e.SignCommand); err != nil {
			return fmt.Errorf("environment %q: sign_command: %v", e.Name, err)
		}
	}
	if e.SignTimeout != "" {
		d, err := time.ParseDuration(e.SignTimeout)
		if err != nil || d < minSignTimeout || d > maxSignTimeout {
			return fmt.Errorf("environment %q: sign_timeout %s: use a duration from %s to %s, such as \"5m\"", e.Name, safetext.NameQuoted(e.SignTimeout), minSignTimeout, maxSignTimeout)
		}
	}
	return nil
}

// EffectiveFollowRate is FollowRate, or the default when it is not set.
func (e Environment) EffectiveFollowRate() int {
	if e.FollowRate > 0 {
		return e.FollowRate
	}
	return DefaultFollowRate
}

// Cookie is the name of the environment's session cookie.
func (e Environment) Cookie() string {
	if e.CookieName != "" {
		return e.CookieName
	}
	return SessionCookie
}

// AccountHeader is the name of the environment's account-id header.
func (e Environment) AccountHeader() string {
	if e.AccountIDHeader != "" {
		return e.AccountIDHeader
	}
	return HeaderAccountID
}

// Domain is the environment's EIP-712 domain.
func (e Environment) Domain() signer.Domain {
	name := e.DomainName
	if name == "" {
		name = signer.DefaultDomainName
	}
	return signer.Domain{Name: name, ChainID: e.ChainID}
}

// checkEnvName refuses a name no environment may have.
func checkEnvName(name string) error {
	if !IsEnvName(name) {
		return fmt.Errorf("environment name %s: use 1 to %d letters, digits, '.', '_', ':' and '-' (the journal records it)", safetext.NameQuoted(name), safetext.MaxNameLen)
	}
	return nil
}

// Validate checks that every URL is https, or http on a loopback host (D13),
// that no URL holds a user name or password, and that each host is plain
// ASCII with a real port: the reviews name the base URL as the place signed for.
//
// The name and domain_name are held to what the journal and the state
// files read back (a token name; a domain name of clean text): a config
// svcwallet could not record would stop every withdrawal at its journal.
func (e Environment) Validate() error {
	if err := checkEnvName(e.Name); err != nil {
		return err
	}
	switch {
	case e.DomainName != "" && !ValidDomainName(e.DomainName):
		return fmt.Errorf("environment %q: domain_name %s: use at most %d characters, without control or invisible characters and without leading or trailing spaces", e.Name, safetext.NameQuoted(e.DomainName), safetext.MaxNameLen)
	}
	for key, v := range map[string]string{"cookie_name": e.CookieName, "account_id_header": e.AccountIDHeader} {
		if v != "" && (len(v) > safetext.MaxNameLen || !IsHTTPToken(v)) {
			return fmt.Errorf("environment %q: %s %s: use at most %d letters, digits and !#$%%&'*+-.^_`|~ (an HTTP token)", e.Name, key, safetext.NameQuoted(v), safetext.MaxNameLen)
		}
	}
	if e.ChainID == 0 {
		return fmt.Errorf("environment %q: chain_id is missing", e.Name)
	}
	if err := ChainIDAboveExact(e.ChainID); err != nil {
		return fmt.Errorf("environment %q: chain_id %d %v", e.Name, e.ChainID, err)
	}
	if e.BridgeFundingAddress != "" && !common.IsHexAddress(e.BridgeFundingAddress) {
		return fmt.Errorf("environment %q: bridge_funding_address %s is not an EVM address (0x and 40 hex digits)", e.Name, safetext.NameQuoted(e.BridgeFundingAddress))
	}
	// base_url first: env add copies it into the other two when they are
	// not given, and its refusal must name the flag that was.
	for _, u := range []struct{ label, raw string }{{"base_url", e.BaseURL}, {"auth_url", e.AuthURL}, {"market_data_url", e.MarketDataURL}} {
		if err := CheckURL(u.raw); err != nil {
			return fmt.Errorf("environment %q: %s: %w", e.Name, u.label, err)
		}
	}
	chains := map[string]bool{}
	for chain, tmpl := range e.ExplorerTx {
		// Its chain is offered as --chain's completion, and said.
		if !safetext.IsChainName(chain) {
			return fmt.Errorf("environment %q: explorer_tx %s: %s", e.Name, safetext.NameQuoted(chain), safetext.ChainNameWords)
		}
		// A chain is matched ignoring case: two links for it would be
		// taken in the map's order, one or the other at each run.
		low := strings.ToLower(chain)
		if chains[low] {
			return fmt.Errorf("environment %q: explorer_tx names the chain %q twice, in two cases: keep one", e.Name, low)
		}
		chains[low] = true
		if hasUserinfo(tmpl) {
			return fmt.Errorf("environment %q: explorer_tx %.20q: %s", e.Name, chain, userinfoRefusal(tmpl))
		}
		if err := urlCharacter(tmpl); err != nil {
			return fmt.Errorf("environment %q: explorer_tx %.20q %v", e.Name, chain, err)
		}
	}
	return e.validateKeys()
}

// Embedded reports whether e is the built-in sandbox, which runs inside
// svcwallet and ends with it: nothing real moves there (EmbeddedWords).
func (e Environment) Embedded() bool { return e.Name == SandboxEnv }

// EmbeddedWords say what the embedded sandbox is, wherever a face names it.
const EmbeddedWords = "the embedded test exchange: nothing real moves"

// SandboxBookWords explain a destination refused for the address book on
// the embedded sandbox, whose book is fixed: it has no web UI to add one in.
// Each face adds where its destinations are listed.
const SandboxBookWords = "The destination is not in the sandbox's address book, which is fixed (the sandbox has no web UI to add one in): pay out to one of its destinations"

// Where is e in a line, as a face names it before a signature: its name,
// base URL and chain id.
func (e Environment) Where() string {
	return fmt.Sprintf("%s · %s · chain id %d", e.Name, e.BaseURL, e.ChainID)
}

// SandboxEnvironment is the built-in environment for a sandbox served at baseURL
// (all three hosts on one listener), pinned to the sandbox's bridge.
func SandboxEnvironment(baseURL string, chainID uint64) Environment {
	return Environment{
		Name: SandboxEnv, AuthURL: baseURL, BaseURL: baseURL, MarketDataURL: baseURL,
		ChainID: chainID, DomainName: signer.DefaultDomainName,
		ExplorerTx: map[string]string{}, BridgeFundingAddress: SandboxBridgeFundingAddress,
	}
}

// SandboxBridgeFundingAddress is the embedded sandbox's bridge funding address
// (sandbox.BridgeFundingAddress; a test keeps the two equal).
const SandboxBridgeFundingAddress = "0x6e3a360d75Dd3E83948f7977b92b21827a89E012"

// ValidDomainName reports whether s can name an EIP-712 domain here: 1 to
// 64 bytes of clean text on one line (safetext.IsLine). The config, the
// sandbox's --domain-name and the journal's lines read back (a
// withdrawal's and a builder authorization's domain) hold to it.
func ValidDomainName(s string) bool { return safetext.IsLine(s, safetext.MaxNameLen) }

// IsHTTPToken reports whether s is an HTTP token (RFC 9110 §5.6.2), what a
// header or cookie name must be.
func IsHTTPToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// IsEnvName tells whether s can name an environment: 1 to
// safetext.MaxNameLen letters, digits, '.', '_', ':' and '-', as the journal
// and the state files record it.
func IsEnvName(s string) bool {
	return s != "" && len(s) <= safetext.MaxNameLen && safetext.IsToken(s)
}
