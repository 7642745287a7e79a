package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"svcwallet/screens"
	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
)

const builderUsage = `Usage:
  svcwallet builder authorize --builder ADDR --max-futures-fee P --max-spot-fee P
      [--api-key-signer ADDR --permissions LIST --label TEXT] [--expires DURATION]
      [--keystore-file FILE] [--dry-run] [--json] [--env NAME] [--config PATH]

Authorizes a builder account to trade for your account, with caps on the fee
rates it may charge: percentages, 0.1 (or 0.1%) means 0.1%, at most 4 decimals. With
--api-key-signer, --permissions and --label (all three, or none) it also
creates an API key for the builder, printed once on stdout: store it then.

The main account's key signs: the raw hex key in $SVCWALLET_PRIVATE_KEY, or an
encrypted --keystore-file FILE whose passphrase is asked for at a hidden prompt (one
line of stdin when stdin is not a terminal). On --env sandbox the sandbox's
public demo key signs when neither is given. Never put a key on the command line.

  --expires DURATION  how long the signature stays valid: 7d (default), 72h,
                      90m, or a number of days; at most 30 days
  --permissions LIST  names joined by & or commas, in any case and order, from
                      Admin, InternalTransfer, ExternalTransfer, Withdraw,
                      VaultInvestor, Trade; sent canonical (Admin&Trade)
  --dry-run           print the typed data (eth_signTypedData_v4 JSON) and its
                      digest; nothing is signed or sent
  --json              print JSON
  --env NAME          environment from the config file, or "sandbox" (the
                      embedded sandbox, inside this one command); no default
  --config PATH       config file

Exit status: 0 authorized (or the dry run printed), 1 refused or failed, 2 usage.
`

// builderTimeout bounds the authorization request.
const builderTimeout = 30 * time.Second

// builderCmd is `svcwallet builder`, with its clock and nonces injectable so
// tests can fix the typed data.
type builderCmd struct {
	env   CLIEnv
	now   func() time.Time
	nonce func() uint32
}

func runBuilder(args []string, env CLIEnv) int {
	return builderCmd{env: env, now: time.Now, nonce: signer.NewNonce}.run(args)
}

type builderFlags struct {
	in                        screens.BuilderInput
	keystore, envName, config string
	dryRun, json              bool
}

func (c builderCmd) usage(format string, a ...any) int {
	fmt.Fprintf(c.env.Stderr, "svcwallet builder: "+format+"\n", a...)
	fmt.Fprintln(c.env.Stderr, "run svcwallet builder --help for usage")
	return 2
}

func (c builderCmd) fail(format string, a ...any) int {
	fmt.Fprintf(c.env.Stderr, "svcwallet builder: "+format+"\n", a...)
	return 1
}

func (c builderCmd) run(args []string) int {
	// Before anything else, so a key typed as an argument is never echoed.
	for _, a := range args {
		if looksLikeKey(a) {
			fmt.Fprintln(c.env.Stderr, "svcwallet builder: refusing a private key on the command line: other users can read it in the process list and your shell history keeps it; export it in $"+signer.KeyEnvVar+" or use --keystore-file FILE")
			return 2
		}
	}
	switch {
	case len(args) == 0:
		fmt.Fprint(c.env.Stderr, builderUsage)
		return 2
	case args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		fmt.Fprint(c.env.Stdout, builderUsage)
		return 0
	case args[0] != "authorize":
		return c.usage("unknown command %.32q: the only one is authorize", args[0])
	}
	f, code, ok := c.parse(args[1:])
	if !ok {
		return code
	}
	// Every flag is checked before a passphrase is asked for; the main
	// account is the signing key's address, known only later.
	probe := f.in
	probe.Main = common.Address{}.Hex()
	if _, err := screens.CheckBuilder(probe); err != nil {
		return c.usage("%s", flagError(err))
	}
	e, closeEnv, err := commandEnv(f.config, f.envName, false)
	if err != nil {
		var ue envUsageError
		if errors.As(err, &ue) {
			return c.usage("%v", err)
		}
		return c.fail("%v", err)
	}
	defer closeEnv()

	main, load, code, ok := c.keySource(f, e)
	if !ok {
		return code
	}
	f.in.Main = main.Hex()
	a, err := screens.CheckBuilder(f.in)
	if err != nil {
		return c.usage("%s", flagError(err))
	}
	nonce, domain := c.nonce(), e.Domain()
	if f.dryRun {
		return c.printDryRun(domain, a.Message(nonce, a.Expiration(c.now())), f.json)
	}
	k, err := load()
	if err != nil {
		return c.fail("%v", err)
	}
	client := service.New(e, service.Options{Now: c.now})
	cx, cancel := context.WithTimeout(context.Background(), builderTimeout)
	defer cancel()
	// Clocks far apart refuse the signature; the expiry counts from the earlier one.
	signNow, err := client.SigningNow(cx)
	if err != nil {
		return c.fail("%v", err)
	}
	exp := a.Expiration(signNow)
	msg := a.Message(nonce, exp)
	sig, err := signer.Sign(k, domain, msg)
	if err != nil {
		return c.fail("signing failed: %v", err)
	}
	res, err := client.AuthorizeBuilder(cx, a.Request(sig))
	if err != nil {
		return c.fail("not authorized: %v", screens.ExplainBuilder(err))
	}
	return c.printResult(a, nonce, exp, res, f.json)
}

// parse reads the flags of `builder authorize`; it takes no arguments.
func (c builderCmd) parse(args []string) (builderFlags, int, bool) {
	var f builderFlags
	fs := flag.NewFlagSet("svcwallet builder authorize", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are worded below, on one line
	fs.StringVar(&f.in.Builder, "builder", "", "builder account address")
	fs.StringVar(&f.in.FuturesFee, "max-futures-fee", "", "maximum futures fee rate, percent")
	fs.StringVar(&f.in.SpotFee, "max-spot-fee", "", "maximum spot fee rate, percent")
	fs.StringVar(&f.in.Expires, "expires", "7d", "signature validity")
	fs.StringVar(&f.in.KeySigner, "api-key-signer", "", "address of the builder API key's signer")
	fs.StringVar(&f.in.Permissions, "permissions", "", "permissions of the builder API key")
	fs.StringVar(&f.in.Label, "label", "", "label of the builder API key")
	fs.StringVar(&f.keystore, "keystore-file", "", "keystore file of the main account's key")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the typed data and digest only")
	fs.BoolVar(&f.json, "json", false, "print JSON")
	fs.StringVar(&f.envName, "env", "", "environment")
	fs.StringVar(&f.config, "config", "", "config file")
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(c.env.Stdout, builderUsage)
		return f, 0, false
	case err != nil:
		return f, c.usage("%v", err), false
	case fs.NArg() > 0:
		return f, c.usage("builder authorize takes no arguments, got %.40q", fs.Arg(0)), false
	}
	return f, 0, true
}

// flagError names the flag a field error is about.
func flagError(err error) string {
	var fe *screens.BuilderFieldError
	if errors.As(err, &fe) {
		return fe.Flag + ": " + fe.Err.Error()
	}
	if errors.Is(err, screens.ErrBuilderKeyFields) {
		return "--label, --api-key-signer and --permissions go together: give all three, or none for an authorization without an API key"
	}
	return err.Error()
}

// keySource picks the main account's key: --keystore-file, $SVCWALLET_PRIVATE_KEY,
// or on the sandbox its demo key. It returns the address at once (a keystore
// file names it in clear) and a loader that asks for the passphrase, so a
// dry run never asks for one.
func (c builderCmd) keySource(f builderFlags, e service.Environment) (common.Address, func() (signer.Key, error), int, bool) {
	if f.keystore != "" {
		addr, err := keystoreFileAddress(f.keystore)
		if err != nil {
			return addr, nil, c.fail("%v", err), false
		}
		return addr, func() (signer.Key, error) {
			pass, err := readSecret(c.env, "Passphrase for "+addr.Hex()+": ", "the passphrase")
			if err != nil {
				return nil, err
			}
			return signer.LoadKeystoreKey(f.keystore, pass)
		}, 0, true
	}
	raw := c.env.Getenv(signer.KeyEnvVar)
	what := "$" + signer.KeyEnvVar
	if raw == "" && e.Name == service.SandboxEnv {
		raw, what = sandbox.DemoPrivateKey, "the sandbox demo key"
	}
	if raw == "" {
		return common.Address{}, nil, c.usage("no signing key: export the main account's hex key in $%s, or give --keystore-file FILE", signer.KeyEnvVar), false
	}
	k, err := signer.ParsePrivateKeyHex(raw)
	if err != nil {
		return common.Address{}, nil, c.usage("%s: %v", what, err), false
	}
	return k.Address(), func() (signer.Key, error) { return k, nil }, 0, true
}

// keystoreFileAddress reads the clear-text address of a keystore V3 file.
func keystoreFileAddress(path string) (common.Address, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return common.Address{}, fmt.Errorf("cannot read the keystore file: %w", err)
	}
	var v struct {
		Address string `json:"address"`
	}
	if len(b) > 64<<10 || json.Unmarshal(b, &v) != nil || !common.IsHexAddress(v.Address) {
		return common.Address{}, fmt.Errorf("%s is not a keystore V3 file", path)
	}
	return common.HexToAddress(v.Address), nil
}

// typedDataJSON is the eth_signTypedData_v4 form of a message. Integers of
// up to 32 bits are JSON numbers; 64-bit ones are decimal strings, which
// wallets accept and JavaScript cannot round.
func typedDataJSON(d signer.Domain, m signer.Message) json.RawMessage {
	type member struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	fields := m.Fields()
	members := make([]member, len(fields))
	var msg bytes.Buffer
	msg.WriteByte('{')
	for i, fl := range fields {
		members[i] = member{fl.Name, fl.Type}
		if i > 0 {
			msg.WriteByte(',')
		}
		msg.Write(marshalJSON(fl.Name))
		msg.WriteByte(':')
		var v []byte
		switch fl.Type {
		case "uint8", "uint32":
			v = []byte(fl.Display())
		default:
			v = marshalJSON(fl.Display())
		}
		msg.Write(v)
	}
	msg.WriteByte('}')
	return marshalJSON(struct {
		Types       map[string][]member `json:"types"`
		PrimaryType string              `json:"primaryType"`
		Domain      any                 `json:"domain"`
		Message     json.RawMessage     `json:"message"`
	}{
		Types: map[string][]member{
			"EIP712Domain":  {{"name", "string"}, {"version", "string"}, {"chainId", "uint256"}},
			m.PrimaryType(): members,
		},
		PrimaryType: m.PrimaryType(),
		Domain: struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			ChainID uint64 `json:"chainId"`
		}{d.Name, signer.DomainVersion, d.ChainID},
		Message: msg.Bytes(),
	})
}

// marshalJSON is json.Marshal without HTML escaping: "Admin&Trade", not
// "Admin\u0026Trade". The values here cannot fail to encode.
func marshalJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func (c builderCmd) printDryRun(d signer.Domain, m signer.Message, asJSON bool) int {
	td, digest := typedDataJSON(d, m), signer.Digest(d, m).Hex()
	if asJSON {
		return c.printJSON(struct {
			DryRun    bool            `json:"dry_run"`
			TypedData json.RawMessage `json:"typed_data"`
			Digest    string          `json:"digest"`
		}{true, td, digest})
	}
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, td, "", "  ")
	fmt.Fprintf(c.env.Stdout, "Dry run: nothing was signed or sent.\n\nTyped data (eth_signTypedData_v4):\n%s\n\nDigest: %s\n", pretty.Bytes(), digest)
	return 0
}

// builderResultJSON is what --json prints after an authorization.
type builderResultJSON struct {
	Authorized        bool   `json:"authorized"`
	Message           string `json:"message"`
	MainAccountID     string `json:"main_account_id"`
	BuilderAccountID  string `json:"builder_account_id"`
	MaxFuturesFeeRate string `json:"max_futures_fee_rate"`
	MaxFuturesSigned  uint32 `json:"max_futures_fee_rate_signed"`
	MaxSpotFeeRate    string `json:"max_spot_fee_rate"`
	MaxSpotSigned     uint32 `json:"max_spot_fee_rate_signed"`
	Nonce             uint32 `json:"nonce"`
	Expiration        string `json:"expiration"`
	ExpiresAt         string `json:"expires_at"`
	Label             string `json:"builder_api_key_label,omitempty"`
	KeySigner         string `json:"builder_api_key_signer,omitempty"`
	Permissions       string `json:"builder_api_key_permissions,omitempty"`
	APIKey            string `json:"api_key,omitempty"`
}

func (c builderCmd) printResult(a screens.BuilderAuth, nonce uint32, exp int64, res service.BuilderAuthorizeResult, asJSON bool) int {
	expiresAt := time.Unix(0, exp).UTC()
	if asJSON {
		out := builderResultJSON{
			Authorized: true, Message: a.Mode(), MainAccountID: a.Main.Hex(), BuilderAccountID: a.Builder.Hex(),
			MaxFuturesFeeRate: signer.FormatFeeRate(a.Futures), MaxFuturesSigned: a.Futures,
			MaxSpotFeeRate: signer.FormatFeeRate(a.Spot), MaxSpotSigned: a.Spot,
			Nonce: nonce, Expiration: strconv.FormatInt(exp, 10), ExpiresAt: expiresAt.Format(time.RFC3339),
			APIKey: res.APIKey,
		}
		if a.WithKey {
			out.Label, out.KeySigner, out.Permissions = a.Label, a.KeySigner.Hex(), a.Perms.String()
		}
		if code := c.printJSON(out); code != 0 {
			return code
		}
	} else {
		w := c.env.Stdout
		fmt.Fprintf(w, "Builder authorized (%s, nonce %d)\n", a.Mode(), nonce)
		fmt.Fprintf(w, "  Builder          %s\n  May trade for    %s\n", a.Builder.Hex(), a.Main.Hex())
		fmt.Fprintf(w, "  Max futures fee  %s\n  Max spot fee     %s\n", screens.FeeText(a.Futures), screens.FeeText(a.Spot))
		fmt.Fprintf(w, "  Signature until  %s\n", expiresAt.Format("2006-01-02 15:04:05 UTC"))
		if a.WithKey {
			fmt.Fprintf(w, "  Key label        %s\n  Key signer       %s\n  Permissions      %s\n", a.Label, a.KeySigner.Hex(), a.Perms.String())
		}
		if res.APIKey != "" {
			fmt.Fprintf(w, "  API key          %s\n", res.APIKey)
		}
	}
	if res.APIKey != "" {
		fmt.Fprintln(c.env.Stderr, "The API key is shown this once and cannot be retrieved again: store it now.")
	} else if a.WithKey {
		fmt.Fprintln(c.env.Stderr, "The service returned no API key for this authorization.")
	}
	return 0
}

func (c builderCmd) printJSON(v any) int {
	enc := json.NewEncoder(c.env.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return c.fail("%v", err)
	}
	return 0
}
