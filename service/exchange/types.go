// Package exchange is the exchange as svcwallet speaks to it (SPEC.md §4):
// the HTTP client, the request and response types, the cleaning and shape
// checks of every answer, the session and its re-login, the clock reading,
// errors and their wording, and the bounded retries of D10. It knows nothing
// of terminals; the workflows built on it live beside it (withdrawal,
// follow, builder, intent), its configuration in config and its record of
// withdrawals in journal.
package exchange

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/signer"
)

// Paths of the endpoints (SPEC.md §4; methods per D14).
const (
	PathAPIKeyLogin      = "/auth/api_key/login"
	PathWalletLogin      = "/auth/wallet/login"
	PathBuilderAuthorize = "/auth/builder/authorize"
	PathTime             = "/time"
	PathDepositAddresses = "/api/v1/deposit/addresses"
	PathGenerateAddress  = "/api/v1/deposit/generate-address"
	PathWithdrawalInfo   = "/api/v1/bridge/withdrawal-info"
	PathWithdrawalQuote  = "/api/v1/bridge/withdrawal-quote"
	PathWithdraw         = "/api/v1/bridge/withdraw"
	PathWithdrawalStatus = "/api/v1/bridge/withdrawal-status"
	HeaderAPIKey         = "X-API-Key"
	TokenUSDT            = "USDT"
	TokenUSDC            = "USDC"
	TokenDecimals        = 6
)

// Withdrawal states (SPEC.md §3).
const (
	StateCreated   = "CREATED"
	StateSubmitted = "SUBMITTED"
	StateSending   = "SENDING"
	StateCompleted = "COMPLETED"
	StateFailed    = "FAILED"
	StateRefunded  = "REFUNDED"
)

// Terminal reports whether a withdrawal state is final.
func Terminal(state string) bool {
	return state == StateCompleted || state == StateFailed || state == StateRefunded
}

// Chain types of withdrawal routes (SPEC.md §2.8).
const (
	ChainTypeEVM    = "evm"
	ChainTypeSolana = "solana"
	ChainTypeTron   = "tron"
)

// ChainIDString is a chain id sent as a decimal string (login and builder
// authorization) and read from either a string or a number.
type ChainIDString uint64

func (c ChainIDString) MarshalJSON() ([]byte, error) {
	return json.Marshal(strconv.FormatUint(uint64(c), 10))
}

func (c *ChainIDString) UnmarshalJSON(b []byte) error {
	v, err := flexUint(b)
	*c = ChainIDString(v)
	return err
}

// ChainIDNumber is a chain id sent as a JSON integer (bridge withdraw), omitted
// when zero, and read from either a number or a string.
type ChainIDNumber uint64

func (c *ChainIDNumber) UnmarshalJSON(b []byte) error {
	v, err := flexUint(b)
	*c = ChainIDNumber(v)
	return err
}

func flexUint(b []byte) (uint64, error) {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return 0, nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, err
		}
	}
	if s == "" {
		return 0, nil
	}
	return strconv.ParseUint(s, 10, 64)
}

// Signature is the signature object of SPEC.md §2.3 for login and builder
// authorization (chain_id as a string).
type Signature struct {
	Signer     string        `json:"signer"`
	R          string        `json:"r"`
	S          string        `json:"s"`
	V          int           `json:"v"`
	Nonce      uint32        `json:"nonce"`
	Expiration string        `json:"expiration"`
	ChainID    ChainIDString `json:"chain_id"`
}

// WithdrawSignature is the signature object of the bridge withdraw request
// (chain_id as an integer, optional).
type WithdrawSignature struct {
	Signer     string        `json:"signer"`
	R          string        `json:"r"`
	S          string        `json:"s"`
	V          int           `json:"v"`
	Nonce      uint32        `json:"nonce"`
	Expiration string        `json:"expiration"`
	ChainID    ChainIDNumber `json:"chain_id,omitempty"`
}

// NewSignature renders a typed signature as the wire object.
func NewSignature(s signer.Signature) Signature {
	return Signature{
		Signer: s.Signer.Hex(), R: s.HexR(), S: s.HexS(), V: int(s.V), Nonce: s.Nonce,
		Expiration: strconv.FormatInt(s.Expiration, 10), ChainID: ChainIDString(s.ChainID),
	}
}

// NewWithdrawSignature renders a typed signature for the withdraw request.
func NewWithdrawSignature(s signer.Signature) WithdrawSignature {
	w := NewSignature(s)
	return WithdrawSignature{
		Signer: w.Signer, R: w.R, S: w.S, V: w.V, Nonce: w.Nonce, Expiration: w.Expiration,
		ChainID: ChainIDNumber(s.ChainID),
	}
}

// APIKeyLoginRequest is the body of SPEC.md §4.1.
type APIKeyLoginRequest struct {
	APIKey string `json:"api_key"`
}

// WalletLoginRequest is the body of SPEC.md §4.2.
type WalletLoginRequest struct {
	Address   string    `json:"address"`
	Signature Signature `json:"signature"`
}

// LoginResult is the body of a successful login (SPEC.md §2.2).
type LoginResult struct {
	Status                string `json:"status"`
	Location              string `json:"location"`
	FundingAccountAddress string `json:"funding_account_address"`
	SubAccountID          string `json:"sub_account_id,omitempty"`
}

// ServerTime is the body of GET /time (SPEC.md §4.3).
type ServerTime struct {
	ServerTime int64 `json:"server_time"` // unix milliseconds
}

// BuilderAuthorizeRequest is the body of SPEC.md §4.4.
type BuilderAuthorizeRequest struct {
	MainAccountID            string    `json:"main_account_id"`
	BuilderAccountID         string    `json:"builder_account_id"`
	MaxFuturesFeeRate        string    `json:"max_futures_fee_rate"`
	MaxSpotFeeRate           string    `json:"max_spot_fee_rate"`
	Signature                Signature `json:"signature"`
	BuilderAPIKeyLabel       string    `json:"builder_api_key_label,omitempty"`
	BuilderAPIKeySigner      string    `json:"builder_api_key_signer,omitempty"`
	BuilderAPIKeyPermissions string    `json:"builder_api_key_permissions,omitempty"`
}

// BuilderAuthorizeResult is {} without an API key, {api_key} with one.
type BuilderAuthorizeResult struct {
	APIKey string `json:"api_key,omitempty"`
	// ErrorCode is the code of an error's body (D7) sent with a success
	// status, which no answer of §4.4 carries: the body contradicts it.
	ErrorCode int `json:"code,omitempty"`
}

// TokenInfo is SPEC.md §2.6.
type TokenInfo struct {
	Name            string `json:"name"`
	ContractAddress string `json:"contract_address"`
}

// ContractText words a token's contract for display. An empty contract
// means a native asset, except for the stablecoins, which always have one:
// for them it means the bridge provider could not be asked (SPEC.md §2.6).
func (t TokenInfo) ContractText() string {
	switch {
	case t.ContractAddress != "":
		return t.ContractAddress
	case t.Name == TokenUSDT || t.Name == TokenUSDC:
		return "unknown: provider unreachable"
	}
	return "native"
}

// ChainInfo is SPEC.md §2.5. A deposit address that fails its chain's check
// is never kept as DepositAddress (nothing copies or draws it): it moves to
// RefusedAddress, cleaned, with the reason in AddressProblem.
type ChainInfo struct {
	Chain           string      `json:"chain"`
	ChainID         string      `json:"chain_id"`
	DepositAddress  string      `json:"deposit_address"`
	SupportedTokens []TokenInfo `json:"supported_tokens"`
	RefusedAddress  string      `json:"refused_address,omitempty"`
	AddressProblem  string      `json:"address_problem,omitempty"`
}

// DepositVerdict is the one verdict on a chain's deposit address, for
// every face: deposit on it, generate one first, or do not deposit.
type DepositVerdict int

const (
	DepositOnIt     DepositVerdict = iota // an address that passed its chain's check
	DepositGenerate                       // on demand: no address yet
	DepositRefused                        // it (or the chain's type) failed its check: AddressProblem says why
)

// RefusedDeposit is what a listing says in place of a refused address.
const RefusedDeposit = "REFUSED, do not deposit"

// NotProvisioned is what a listing says of an on-demand chain without an
// address yet (SPEC.md §2.5), in every face; each adds how to generate one.
const NotProvisioned = "not provisioned"

// Verdict is c's DepositVerdict.
func (c ChainInfo) Verdict() DepositVerdict {
	switch {
	case c.AddressProblem != "":
		return DepositRefused
	case c.DepositAddress == "":
		return DepositGenerate
	}
	return DepositOnIt
}

// Listed is the address a listing shows for c: the address, "REFUSED, do
// not deposit: REASON" for a refused one, and NotProvisioned when one is
// yet to be generated.
func (c ChainInfo) Listed() string {
	switch c.Verdict() {
	case DepositRefused:
		return RefusedDeposit + ": " + c.AddressProblem
	case DepositGenerate:
		return NotProvisioned
	}
	return c.DepositAddress
}

// Refusal says why a refused chain (DepositRefused) has no address to
// deposit to, and what to do, as every face says it.
func (c ChainInfo) Refusal() string {
	what := "deposit address the service sent"
	if c.RefusedAddress == "" {
		what = "chain the service lists"
	}
	return "The " + c.Chain + " " + what + " failed its check (" + c.AddressProblem + "): no address is given for it. Do not deposit on it; contact support"
}

// DepositAddresses is the body of SPEC.md §4.5.
type DepositAddresses struct {
	Chains []ChainInfo `json:"chains"`
}

// GenerateAddressRequest is the body of SPEC.md §4.6.
type GenerateAddressRequest struct {
	Chain string `json:"chain"`
}

// WithdrawalRoute is SPEC.md §2.8.
type WithdrawalRoute struct {
	Chain     string   `json:"chain"`
	ChainID   string   `json:"chain_id"`
	ChainType string   `json:"chain_type"`
	TokensOut []string `json:"tokens_out"`
}

// WithdrawalInfo is the body of SPEC.md §4.7.
type WithdrawalInfo struct {
	Provider       string                       `json:"provider"`
	FundingAddress string                       `json:"funding_address"`
	Route          map[string][]WithdrawalRoute `json:"route"`
}

// QuoteRequest is the body of SPEC.md §4.8. Amount is a plain decimal string
// (see FormatAmount), kept as text so the sandbox can parse it strictly.
type QuoteRequest struct {
	ToAddress string `json:"to_address"`
	Chain     string `json:"chain"`
	TokenIn   string `json:"token_in"`
	TokenOut  string `json:"token_out"`
	Amount    string `json:"amount"`
}

// Quote is SPEC.md §2.9.
type Quote struct {
	QuoteID       string          `json:"quote_id"`
	PayAmount     decimal.Decimal `json:"pay_amount"`
	ReceiveAmount decimal.Decimal `json:"receive_amount"`
	Fee           decimal.Decimal `json:"fee"`
	FeeUSD        decimal.Decimal `json:"fee_usd"`
	Speed         string          `json:"speed"`
	ExpiresAt     time.Time       `json:"expires_at"`
}

// Cost is what the user loses to the withdrawal: the pay amount less the
// receive amount (the fee and any spread), with a converted payout valued
// 1:1, both tokens stablecoins worth one USD; faces say it through
// withdrawal.Loss, which names that valuation.
func (q Quote) Cost() decimal.Decimal { return q.PayAmount.Sub(q.ReceiveAmount) }

// Quote speeds.
const (
	SpeedFast = "fast"
	SpeedSlow = "slow"
)

// WithdrawRequest is the body of SPEC.md §4.9.
type WithdrawRequest struct {
	QuoteID   string            `json:"quote_id"`
	Signature WithdrawSignature `json:"signature"`
}

// WithdrawAccepted is the 202 body of SPEC.md §4.9.
type WithdrawAccepted struct {
	QuoteID       string          `json:"quote_id"`
	TxID          string          `json:"tx_id"`
	State         string          `json:"state"`
	ReceiveAmount decimal.Decimal `json:"receive_amount"`
	Fee           decimal.Decimal `json:"fee"`
	FeeUSD        decimal.Decimal `json:"fee_usd"`
}

// Withdrawal is the status record of SPEC.md §2.10.
type Withdrawal struct {
	QuoteID        string          `json:"quote_id"`
	TxID           string          `json:"tx_id"`
	State          string          `json:"state"`
	Chain          string          `json:"chain"`
	TokenOut       string          `json:"token_out"`
	ReceiveAmount  decimal.Decimal `json:"receive_amount"`
	WithdrawTxHash string          `json:"withdraw_tx_hash,omitempty"`
	UpdatedAt      time.Time       `json:"updated_at"`
	// ServiceTime is the service's clock when a CREATED record was read,
	// at the least (Client.ServiceTimeSince): whether its quote can still
	// execute is decided on it (D15). Zero for other states, and when the
	// service's time could not be read. Never read from an answer.
	ServiceTime time.Time `json:"-"`
	// ServiceTimeKept: ServiceTime comes from a reading of /time kept from
	// before this answer (Client.WithdrawalStatus), not one read after it:
	// enough to tell that a quote may still execute, never that it cannot.
	ServiceTimeKept bool `json:"-"`
	// asked is our clock when the request left, for ServiceTimeAfter.
	asked time.Time
}

// ErrorBody is the error body of D7.
type ErrorBody struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Status  int    `json:"status"`
}

// ChainTypeLabel names a chain type for people: "EVM", "Solana", "Tron".
func ChainTypeLabel(chainType string) string {
	switch chainType {
	case ChainTypeEVM:
		return "EVM"
	case ChainTypeSolana:
		return "Solana"
	case ChainTypeTron:
		return "Tron"
	}
	return chainType
}

// CheckChainName refuses what cannot be a chain's name
// (safetext.IsChainName). Which chains exist is the service's to say: the
// deposit listing and withdrawal info are authoritative, as the list can
// change.
func CheckChainName(name string) error {
	if !safetext.IsChainName(name) {
		return errors.New(safetext.ChainNameWords)
	}
	return nil
}

// ChainNamed is the chain of chains whose name is name in any case, as
// the service spells it.
func ChainNamed(chains []ChainInfo, name string) (ChainInfo, bool) {
	for _, c := range chains {
		if strings.EqualFold(c.Chain, name) {
			return c, true
		}
	}
	return ChainInfo{}, false
}
