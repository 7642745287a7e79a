package sandbox

import (
	"crypto/rand"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// builderWindow is how far ahead a builder authorization may expire (SPEC.md §4.4).
const builderWindow = 30 * 24 * time.Hour

type builderRequest struct {
	MainAccountID     *string  `json:"main_account_id"`
	BuilderAccountID  *string  `json:"builder_account_id"`
	MaxFuturesFeeRate *string  `json:"max_futures_fee_rate"`
	MaxSpotFeeRate    *string  `json:"max_spot_fee_rate"`
	Signature         *wireSig `json:"signature"`
	KeyLabel          *string  `json:"builder_api_key_label"`
	KeySigner         *string  `json:"builder_api_key_signer"`
	KeyPermissions    *string  `json:"builder_api_key_permissions"`
}

// builderFields are the parsed, signature-independent fields of a request.
type builderFields struct {
	main, builder, keySigner common.Address
	futures, spot            uint32
	perms                    perms
	withKey                  bool
}

// handleBuilderAuthorize is SPEC.md §4.4 (POST, D14). No session is needed:
// the main account's signature is the credential. Any valid EVM address may
// be the builder. With the three builder_api_key_* fields the builder's
// signer joins the main account's signers with the given permissions and an
// API key for the builder's access is returned.
func (e *Exchange) handleBuilderAuthorize(w http.ResponseWriter, r *http.Request) *apiError {
	var req builderRequest
	if err := readBody(r).decode(&req); err != nil {
		return err
	}
	f, err := req.fields()
	if err != nil {
		return err
	}
	return e.respond(w, func(now time.Time) (reply, *apiError) {
		s, err := e.check(req.Signature, true, now, builderWindow)
		if err != nil {
			return reply{}, err
		}
		a := e.byFunding[f.main]
		if a == nil {
			return reply{}, fail(exchange.CodeUnauthorizedSigner, "main_account_id is not the funding address of a known account")
		}
		if s.signer != a.owner {
			return reply{}, fail(exchange.CodeUnauthorizedSigner, "a builder authorization must be signed by the main account's key")
		}
		if err := e.verify(s, f.message(s), "the builder authorization"); err != nil {
			return reply{}, err
		}
		k := nonceKey{kindBuilder, s.signer, s.nonce}
		if e.nonceUsed(k, now) {
			return reply{}, fail(exchange.CodeDuplicateSignature, "this authorization's nonce was already used; sign again with a new nonce")
		}
		e.useNonce(k, s.expiration)
		if !f.withKey {
			return reply{body: exchange.BuilderAuthorizeResult{}}, nil
		}
		a.signers[f.keySigner] |= f.perms
		key := "sbx-" + strings.ToLower(rand.Text())
		e.keys[key] = keyGrant{accountID: a.id, builder: f.builder}
		return reply{body: exchange.BuilderAuthorizeResult{APIKey: key}}, nil
	})
}

// fields checks everything but the signature: required fields (1003), the
// all-or-none rule of the API key fields (9003), addresses (1003), fee rates
// (feeRate) and canonical permissions (9005).
func (req *builderRequest) fields() (builderFields, *apiError) {
	var f builderFields
	mainText, err := need(req.MainAccountID, "main_account_id")
	if err != nil {
		return f, err
	}
	builderText, err := need(req.BuilderAccountID, "builder_account_id")
	if err != nil {
		return f, err
	}
	futuresText, err := need(req.MaxFuturesFeeRate, "max_futures_fee_rate")
	if err != nil {
		return f, err
	}
	spotText, err := need(req.MaxSpotFeeRate, "max_spot_fee_rate")
	if err != nil {
		return f, err
	}
	given := 0
	for _, p := range []*string{req.KeyLabel, req.KeySigner, req.KeyPermissions} {
		if p != nil && *p != "" {
			given++
		}
	}
	if given != 0 && given != 3 {
		return f, fail(exchange.CodeBuilderFields, "builder_api_key_label, builder_api_key_signer and builder_api_key_permissions go together: send all three or none")
	}
	f.withKey = given == 3
	if f.main, err = parseAddress(mainText, "main_account_id"); err != nil {
		return f, err
	}
	if f.builder, err = parseAddress(builderText, "builder_account_id"); err != nil {
		return f, err
	}
	if f.futures, err = feeRate(futuresText, "max_futures_fee_rate"); err != nil {
		return f, err
	}
	if f.spot, err = feeRate(spotText, "max_spot_fee_rate"); err != nil {
		return f, err
	}
	if !f.withKey {
		return f, nil
	}
	if f.keySigner, err = parseAddress(*req.KeySigner, "builder_api_key_signer"); err != nil {
		return f, err
	}
	var perr error
	if f.perms, perr = parseCanonicalPerms(*req.KeyPermissions); perr != nil {
		return f, failf(exchange.CodeBadPermissions, "builder_api_key_permissions: %s", perr)
	}
	return f, nil
}

// feeRate reads one fee-rate field: negative is 7501, over the limit 7500,
// anything else unreadable 9004.
func feeRate(text, field string) (uint32, *apiError) {
	v, err := parseFeeRate(text)
	code := exchange.CodeBadFeeRate
	switch {
	case err == nil:
		return v, nil
	case errors.Is(err, errFeeNegative):
		code = exchange.CodeBuilderFeeNegative
	case errors.Is(err, errFeeOverLimit):
		code = exchange.CodeBuilderFeeOverLimit
	}
	return 0, failf(code, "%s: %s", field, err)
}

// message rebuilds the typed data the main account's key should have signed.
func (f builderFields) message(s sig) signer.Message {
	if f.withKey {
		return signer.AddAccountSignerWithBuilder{
			AccountID: f.main, Signer: f.keySigner, Permissions: f.perms.canonical(), BuilderAccountID: f.builder,
			MaxFutureFeeRate: f.futures, MaxSpotFeeRate: f.spot, Nonce: s.nonce, Expiration: s.expiration,
		}
	}
	return signer.AuthorizeBuilder{
		MainAccountID: f.main, BuilderAccountID: f.builder,
		MaxFutureFeeRate: f.futures, MaxSpotFeeRate: f.spot, Nonce: s.nonce, Expiration: s.expiration,
	}
}
