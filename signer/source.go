package signer

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/urlhost"
)

// SourceKind is where a key lives.
type SourceKind string

// The key sources of --signer and the config's signer.
const (
	// SourceKeystore: an encrypted keystore file, named by its address in
	// the keystore directory (keystore:ADDRESS) or by its path.
	SourceKeystore SourceKind = "keystore"
	// SourceEnv: the raw hex key in $SVCWALLET_PRIVATE_KEY.
	SourceEnv SourceKind = "env"
	// SourceClef: go-ethereum's clef, over HTTP or its IPC socket.
	SourceClef SourceKind = "clef"
	// SourceCommand: a signing command (sign_command, or
	// $SVCWALLET_SIGN_COMMAND) given the typed data.
	SourceCommand SourceKind = "command"
	// SourceOffline: no key here. The typed data is written to a file for
	// a wallet elsewhere to sign, and its signature is submitted later.
	SourceOffline SourceKind = "offline"
)

// DefaultClefEndpoint is clef's own default HTTP address.
const DefaultClefEndpoint = "http://127.0.0.1:8550"

// SignCommandEnvVar holds the signing command of the command source when
// the environment's config sets no sign_command.
const SignCommandEnvVar = "SVCWALLET_SIGN_COMMAND"

// SignCommandLine is the signing command of the command source: the
// environment's sign_command (configured), else $SVCWALLET_SIGN_COMMAND as
// getenv gives it (nil: none).
func SignCommandLine(configured string, getenv func(string) string) string {
	if configured != "" || getenv == nil {
		return configured
	}
	return getenv(SignCommandEnvVar)
}

// Source is a key source as --signer or the config's signer names it: where
// the key is, never the key. The zero Source is none.
type Source struct {
	Kind SourceKind
	// Address is the key of keystore:ADDRESS; zero for a keystore file
	// given by its path, and for the other kinds.
	Address common.Address
	// Path is the keystore file given by its path.
	Path string
	// Endpoint is clef's: an http(s) URL or the path of its IPC socket.
	Endpoint string
}

// sourceHelp lists the forms ParseSource takes, for its errors.
const sourceHelp = "keystore:ADDRESS, a keystore file's path, env, clef:ENDPOINT (an http://127.0.0.1:8550 URL or clef's IPC socket path), command or offline"

// ParseSource reads a key source: keystore:ADDRESS (or keystore, the
// keystore directory's key for --account), a keystore file's path, env,
// clef:ENDPOINT (clef alone is DefaultClefEndpoint), command or offline. It is the
// one parser of --signer and the config's signer; its errors repeat
// nothing that could be a key.
func ParseSource(s string) (Source, error) {
	s = strings.TrimSpace(s)
	kind, rest, hasRest := strings.Cut(s, ":")
	switch {
	case s == "":
		return Source{}, errors.New("empty key source: use " + sourceHelp)
	case safetext.HoldsKeyShape(s):
		return Source{}, errors.New("this key source holds " + safetext.KeyShape + ": a source names where the key is (env reads $" + KeyEnvVar + ")")
	case invisibleCharacter(s) != nil:
		return Source{}, invisibleCharacter(s) // its caller names the setting, as for the rest
	case s == string(SourceEnv):
		return Source{Kind: SourceEnv}, nil
	case s == string(SourceCommand):
		return Source{Kind: SourceCommand}, nil
	case s == string(SourceOffline):
		return Source{Kind: SourceOffline}, nil
	case s == string(SourceKeystore):
		return Source{Kind: SourceKeystore}, nil
	case s == string(SourceClef):
		return Source{Kind: SourceClef, Endpoint: DefaultClefEndpoint}, nil
	case kind == string(SourceKeystore) && hasRest:
		if !common.IsHexAddress(rest) {
			return Source{}, fmt.Errorf("keystore:%.50q: not an address (0x and 40 hex digits); for a file, give its path alone", safetext.Quoted(rest))
		}
		return Source{Kind: SourceKeystore, Address: common.HexToAddress(rest)}, nil
	case kind == string(SourceClef) && hasRest:
		ep, err := clefEndpoint(rest)
		if err != nil {
			return Source{}, fmt.Errorf("clef:%.80q: %v", safetext.Quoted(withoutSecrets(rest)), err)
		}
		return Source{Kind: SourceClef, Endpoint: ep}, nil
	case strings.ContainsAny(s, `/\`) || strings.HasSuffix(strings.ToLower(s), ".json"):
		return Source{Kind: SourceKeystore, Path: s}, nil
	}
	return Source{}, fmt.Errorf("unknown key source %.40q: use %s", safetext.Quoted(s), sourceHelp)
}

// KeystoreFile is the keystore file at path as a key source (--keystore-file),
// held to what ParseSource holds a keystore path to: it is said back too.
// Its error names no setting: its caller does.
func KeystoreFile(path string) (Source, error) {
	if err := invisibleCharacter(path); err != nil {
		return Source{}, err
	}
	return Source{Kind: SourceKeystore, Path: path}, nil
}

// clefEndpoint checks clef's endpoint: an http URL on a loopback host or an
// https one (D13), without a user name or password, its host held to
// urlhost.Check, or an IPC socket path.
func clefEndpoint(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("give clef's endpoint, such as " + DefaultClefEndpoint + " or the path of its clef.ipc")
	}
	if !strings.Contains(raw, "://") {
		return filepath.Clean(raw), nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return "", errors.New("not an absolute URL")
	case u.User != nil:
		return "", errors.New("holds a user name or password: remove it")
	case strings.ContainsAny(raw, "?#"):
		// It is said back while a signature waits, in errors and logs: a
		// token there is a secret as a password is, and clef takes none.
		return "", errors.New("holds a query or fragment (? or #): clef's endpoint takes none; remove it")
	}
	// The host rule of the config's URLs: clef's endpoint is said while a
	// signature waits for it, and a look-alike host there would lie.
	if err := urlhost.Check(u); err != nil {
		return "", err
	}
	switch {
	case u.Scheme == "https":
		return raw, nil
	case u.Scheme != "http":
		return "", errors.New("the scheme must be http (on this machine) or https")
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return "", errors.New("http is for clef on this machine (127.0.0.1, localhost); use https for another host")
	}
	return raw, nil
}

// withoutSecrets is raw with any user name and password before an @ in
// its authority cut out, and its query or fragment ("?…"), so an error may
// repeat the rest.
func withoutSecrets(raw string) string {
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		rest = "…" + rest[at:]
	}
	if q := strings.IndexAny(rest, "?#"); q >= 0 {
		rest = rest[:q+1] + "…"
	}
	return scheme + "://" + rest
}

// Describe names the source for people: "clef at http://127.0.0.1:8550",
// "the keystore file UTC--…", "$SVCWALLET_PRIVATE_KEY".
func (s Source) Describe() string {
	switch s.Kind {
	case SourceKeystore:
		if s.Path != "" {
			return "the keystore file " + filepath.Base(s.Path)
		}
		return "the keystore"
	case SourceEnv:
		return "$" + KeyEnvVar
	case SourceClef:
		return "clef at " + s.Endpoint
	case SourceCommand:
		return "the signing command"
	case SourceOffline:
		return "offline signing"
	}
	return "no key source"
}

// Waits reports whether a signature from this source waits for a person or
// a program outside svcwallet (clef, a signing command, a wallet elsewhere
// for offline signing): long enough for a quote to expire.
func (s Source) Waits() bool {
	return s.Kind == SourceClef || s.Kind == SourceCommand || s.Kind == SourceOffline
}
