package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"svcwallet/service"
	"svcwallet/service/sandbox"
	"svcwallet/signer"
)

const builderUsage = `Usage:
  svcwallet builder authorize --builder ADDR --max-futures-fee P --max-spot-fee P
      [--api-key-signer ADDR --permissions LIST --label TEXT] [--expires DURATION]
      [--keystore-file FILE [--password-file FILE]] [--yes] [--dry-run [--account ADDR]]
      [--json] [--env NAME] [--config PATH]

Authorizes a builder account to trade for your account, with caps on the fee
rates it may charge: percentages, 0.1 (or 0.1%) means 0.1%, at most 4 decimals. With
--api-key-signer, --permissions and --label (all three, or none) it also
creates an API key for the builder, printed once on stdout: store it then.

The main account's key signs: the raw hex key in $SVCWALLET_PRIVATE_KEY, or an
encrypted --keystore-file FILE whose passphrase is asked for at a hidden prompt (one
line of stdin when stdin is not a terminal), or read from the first line of
--password-file FILE. On --env sandbox the sandbox's
public demo key signs when neither is given. Never put a key on the command line.

  --expires DURATION  how long the signature stays valid: 7d (default), 72h,
                      90m, or a number of days; at most 30 days
  --permissions LIST  names joined by & or commas, in any case and order, from
                      Admin, InternalTransfer, ExternalTransfer, Withdraw,
                      VaultInvestor, Trade; sent canonical (Admin&Trade)
  --yes               go on when --builder is your own account (refused
                      otherwise: a builder is normally another account)
  --dry-run           print the typed data (eth_signTypedData_v4 JSON) and its
                      digest; nothing is signed or sent
  --account ADDR      with --dry-run: the main account, so no key is needed
  --json              print JSON
  --env NAME          environment from the config file, or "sandbox" (the
                      embedded sandbox, inside this one command); default
                      $SVCWALLET_ENV, else the config's default_env, else sandbox
  --config PATH       config file (default $SVCWALLET_CONFIG, else the user's)

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
	in                     service.BuilderInput
	keystore, passwordFile string
	account                string // --account: the main account of a dry run, no key needed
	envName, config        string
	dryRun, json, yes      bool
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
	if _, err := service.CheckBuilder(probe); err != nil {
		return c.usage("%s", flagError(err))
	}
	e, closeEnv, err := commandEnv(f.config, f.envName, c.env.Getenv)
	if err != nil {
		var ue envUsageError
		if errors.As(err, &ue) {
			return c.usage("%v", err)
		}
		return c.fail("%v", err)
	}
	defer closeEnv()

	var main common.Address
	var load func() (signer.Key, error)
	switch {
	case f.account != "" && !f.dryRun:
		return c.usage("--account is for --dry-run: a real authorization is signed by the account's own key")
	case f.account != "":
		if !common.IsHexAddress(f.account) {
			return c.usage("--account: %.50q is not an address (0x and 40 hex digits)", f.account)
		}
		main = common.HexToAddress(f.account)
	default:
		if main, load, code, ok = c.keySource(f, e); !ok {
			return code
		}
	}
	f.in.Main = main.Hex()
	a, err := service.CheckBuilder(f.in)
	if err != nil {
		return c.usage("%s", flagError(err))
	}
	if a.Builder == a.Main {
		if !f.yes && !f.dryRun {
			return c.usage("--builder %s is your own account: a builder is normally another account that trades for yours; check the address, or add --yes to authorize it anyway", a.Builder.Hex())
		}
		fmt.Fprintln(c.env.Stderr, "Warning: the builder is your own account.")
	}
	nonce, domain := c.nonce(), e.Domain()
	if f.dryRun {
		return c.printDryRun(domain, a.Message(nonce, a.Expiration(c.now())), f.json)
	}
	k, err := load()
	if err != nil {
		return c.fail("%v", err)
	}
	client := service.New(e, service.Options{Now: c.now, Logger: c.env.Log})
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
		return c.fail("not authorized: %v", service.ExplainBuilder(err))
	}
	return c.printResult(a, nonce, exp, res, f.json, e.Name == service.SandboxEnv)
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
	fs.BoolVar(&f.yes, "yes", false, "go on when the builder is your own account")
	fs.StringVar(&f.account, "account", "", "with --dry-run: the main account address, so no key is needed")
	fs.StringVar(&f.passwordFile, "password-file", "", "read the keystore passphrase from the first line of this file")
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
	var fe *service.BuilderFieldError
	if errors.As(err, &fe) {
		return fe.Flag + ": " + fe.Err.Error()
	}
	if errors.Is(err, service.ErrBuilderKeyFields) {
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
		addr, known, err := signer.KeystoreFileAddress(f.keystore)
		if err != nil {
			return addr, nil, c.fail("%v", err), false
		}
		load := func(prompt string) (signer.Key, error) {
			read := func() (string, error) { return readSecret(c.env, prompt, "the passphrase") }
			if f.passwordFile != "" {
				read = func() (string, error) { return readPasswordFile(f.passwordFile) }
			}
			pass, err := read()
			if err != nil {
				return nil, err
			}
			return signer.LoadKeystoreKey(f.keystore, pass)
		}
		if !known {
			// A file without a clear-text address (Foundry's) must be
			// decrypted before the message, which names the address, is built.
			k, err := load("Passphrase for " + filepath.Base(f.keystore) + ": ")
			if err != nil {
				return addr, nil, c.fail("%v", err), false
			}
			return k.Address(), func() (signer.Key, error) { return k, nil }, 0, true
		}
		return addr, func() (signer.Key, error) { return load("Passphrase for " + addr.Hex() + ": ") }, 0, true
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
	APIKeyNote        string `json:"api_key_note,omitempty"`
}

// printResult prints the authorization. embedded: the sandbox lived inside
// this command, so an API key it made stops working when the command ends.
func (c builderCmd) printResult(a service.BuilderAuth, nonce uint32, exp int64, res service.BuilderAuthorizeResult, asJSON, embedded bool) int {
	expiresAt := time.Unix(0, exp).UTC()
	if asJSON {
		out := builderResultJSON{
			Authorized: true, Message: a.Mode(), MainAccountID: a.Main.Hex(), BuilderAccountID: a.Builder.Hex(),
			MaxFuturesFeeRate: signer.FormatFeeRate(a.Futures), MaxFuturesSigned: a.Futures,
			MaxSpotFeeRate: signer.FormatFeeRate(a.Spot), MaxSpotSigned: a.Spot,
			Nonce: nonce, Expiration: strconv.FormatInt(exp, 10), ExpiresAt: expiresAt.Format(time.RFC3339),
			APIKey: res.APIKey,
		}
		if embedded && res.APIKey != "" {
			out.APIKeyNote = "dies with this command: the embedded sandbox stopped"
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
		fmt.Fprintf(w, "  Max futures fee  %s\n  Max spot fee     %s\n", service.FeeText(a.Futures), service.FeeText(a.Spot))
		fmt.Fprintf(w, "  Signature until  %s\n", expiresAt.Format("2006-01-02 15:04:05 UTC"))
		if a.WithKey {
			fmt.Fprintf(w, "  Key label        %s\n  Key signer       %s\n  Permissions      %s\n", a.Label, a.KeySigner.Hex(), a.Perms.String())
		}
		if res.APIKey != "" {
			note := ""
			if embedded {
				note = "  (dies with this command: the embedded sandbox stopped)"
			}
			fmt.Fprintf(w, "  API key          %s%s\n", res.APIKey, note)
		}
	}
	switch {
	case res.APIKey != "" && embedded:
		fmt.Fprintln(c.env.Stderr, "The API key was made by the embedded sandbox, which stopped with this command: it no longer works. For one that lasts, run `svcwallet sandbox` and point an environment of the config at it.")
	case res.APIKey != "":
		fmt.Fprintln(c.env.Stderr, "The API key is shown this once and cannot be retrieved again: store it now.")
	case a.WithKey:
		fmt.Fprintln(c.env.Stderr, "The service returned no API key for this authorization.")
	}
	return 0
}

func (c builderCmd) printJSON(v any) int {
	if err := writeJSON(c.env.Stdout, v); err != nil {
		return c.fail("%v", err)
	}
	return 0
}
