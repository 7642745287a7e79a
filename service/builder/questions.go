package builder

import (
	"strings"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/signer"
)

// field is what a face shows of one input: its label in the form, and the
// question that asks for it.
type field struct {
	label string
	q     intent.Question
}

// fields are the inputs of a builder authorization, each with the check
// Check makes of it.
var fields = map[Field]field{
	FieldMain: {label: "Main account"},
	FieldBuilder: {"Builder account", intent.Question{Ask: "Builder account address", How: "0x and 40 hex digits",
		Check: func(a string) error { _, err := ParseEVMAddress(a, "the builder account"); return err }}},
	FieldFuturesFee: {"Max futures fee", intent.Question{Ask: "Max futures fee, in percent", How: "such as 0.1", Check: checkFee}},
	FieldSpotFee:    {"Max spot fee", intent.Question{Ask: "Max spot fee, in percent", How: "such as 0.05", Check: checkFee}},
	FieldExpires: {"Valid for", intent.Question{Ask: "Valid for", How: "such as 7d, 72h or 90m, at most 30 days", Empty: HumanDuration(DefaultValidity),
		Check: func(a string) error { _, err := ParseValidity(a); return err }}},
	FieldLabel: {"Key label", intent.Question{Ask: "API key label", How: "shown in the API key list",
		Check: func(a string) error { return checkLabel(strings.TrimSpace(a)) }}},
	FieldKeySigner: {"Key signer", intent.Question{Ask: "Address of the key that will sign the builder's API requests",
		How:   "its private key stays with the builder; 0x and 40 hex digits",
		Check: func(a string) error { _, err := ParseEVMAddress(a, "the API key's signer"); return err }}},
	FieldPermissions: {"Permissions", intent.Question{Ask: "Permissions", How: "joined by &, any of " + permissionNames() + "; such as Trade",
		Check: func(a string) error { _, err := signer.ParsePermissions(a); return err }}},
}

// Asked are the inputs asked of an authorization, in order; KeyAsked
// those of its API key, asked when the user wants one.
var (
	Asked    = []Field{FieldBuilder, FieldFuturesFee, FieldSpotFee, FieldExpires}
	KeyAsked = []Field{FieldLabel, FieldKeySigner, FieldPermissions}
)

// Label names the input as the form does.
func (f Field) Label() string { return fields[f].label }

// Question is what asks for the input, checked as Check checks it.
func (f Field) Question() intent.Question { return fields[f].q }

// Of is where in holds the input f.
func (in *Input) Of(f Field) *string {
	return map[Field]*string{FieldMain: &in.Main, FieldBuilder: &in.Builder, FieldFuturesFee: &in.FuturesFee, FieldSpotFee: &in.SpotFee,
		FieldExpires: &in.Expires, FieldLabel: &in.Label, FieldKeySigner: &in.KeySigner, FieldPermissions: &in.Permissions}[f]
}

func checkFee(a string) error { _, err := ParseFeePercent(a); return err }

// permissionNames lists the permissions by name, in bit order.
func permissionNames() string {
	names := make([]string, len(signer.AllPermissions))
	for i, p := range signer.AllPermissions {
		names[i] = signer.Permissions(0).With(p).String()
	}
	return strings.Join(names, ", ")
}

// SignQuestion is the question whose yes signs and sends the
// authorization, in every face's words: the builder, its fee caps, its API
// key and, outside production, the environment, so that it reads right
// alone (a screen reader's last line). Faces add only their key
// convention.
func (a Auth) SignQuestion(e config.Environment) string {
	q := "Sign and authorize builder " + a.Builder.Hex() + " to charge fees up to " + signer.FormatFeeRate(a.Futures) + "% on futures and " +
		signer.FormatFeeRate(a.Spot) + "% on spot"
	if a.WithKey {
		q += ", with an API key for " + strings.ReplaceAll(a.Perms.String(), "&", " and ")
	}
	return q + e.Elsewhere() + "?"
}

// GrantQuestion is the second question an API key that may move or
// administer funds needs (AcceptsGrant), in every face's words; faces add
// only their key convention.
func (a Auth) GrantQuestion() string { return a.GrantWords() + ". " + grantAsk }

// GrantQuestionBrief is GrantQuestion in the fewest words, for a face short
// of room whose review above names the key's permissions.
func (a Auth) GrantQuestionBrief() string { return "The key may move your funds. " + grantAsk }

const grantAsk = "Grant it all the same?"
