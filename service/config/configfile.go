package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// Config is the TOML configuration file: named environments and defaults.
//
//	default_env = "testnet"
//	[env.testnet]
//	auth_url = "https://auth.testnet.example"
//	...
type Config struct {
	DefaultEnv string `toml:"default_env"`
	// Bell rings the terminal bell when a withdrawal on the watch board
	// changes state.
	Bell bool `toml:"bell"`
	// Notify sends a desktop notification through the terminal (OSC 9 and
	// 777) when a followed withdrawal ends.
	Notify bool `toml:"notify"`
	// Theme is the console's colours, "light" or "dark", when the terminal
	// is not to be asked; "" asks it (--theme overrides both).
	Theme        string                 `toml:"theme"`
	Environments map[string]Environment `toml:"env"`
}

// DefaultConfigPath is config.toml in the user's config directory
// (osguard.DirsFor: the one rule for every system).
func DefaultConfigPath() string {
	d, err := osguard.UserDirs()
	if err != nil {
		return ""
	}
	return filepath.Join(d.Config, "config.toml")
}

// maxConfigFile bounds a config: one larger is no hand-written config.
const maxConfigFile = 1 << 20

// readConfigFile reads the config as os.ReadFile does, but a named pipe or
// a device is refused, never waited on (osguard.OpenUserFile), and one of
// more than maxConfigFile is refused before it is read whole.
func readConfigFile(path string) ([]byte, error) { return osguard.ReadUserFile(path, maxConfigFile) }

// ShownPath is a config's path as a message names it (safetext.Shown), or,
// when it holds a wallet secret's shape (LoadConfig refuses it), words that
// do not repeat it.
func ShownPath(path string) string {
	if secretPathError(path) != nil {
		return "the path given, not shown: it holds a wallet secret's shape"
	}
	return safetext.Shown(path)
}

// secretPathError refuses a config path holding a wallet secret's shape
// (safetext.TypedSecret: $SVCWALLET_CONFIG set to a key or a recovery
// phrase by mistake), which every refusal naming the path would repeat.
// The one check of LoadConfig, an edit and ShownPath.
func secretPathError(path string) error {
	switch safetext.TypedSecret(path) {
	case safetext.KeySecret:
		return errors.New("the config's path holds " + safetext.KeyShape + " and is not shown: name the config file, never a key")
	case safetext.PhraseSecret:
		return errors.New("the config's path holds the shape of a recovery phrase or of an extended private key (xprv…) and is not shown: name the config file, never a wallet's secret")
	}
	return nil
}

// LoadConfig reads a config file. A missing file at the default path is not an
// error (the sandbox is used); a missing file given explicitly is.
func LoadConfig(path string, explicit bool) (Config, error) {
	cfg, _, err := loadConfigFile(path, path, explicit)
	return cfg, err
}

// loadConfigFile is LoadConfig of the config named path, read from file
// (path, or the file a link there names), with the text it decoded: an
// edit checks and changes one read.
func loadConfigFile(path, file string, explicit bool) (Config, []byte, error) {
	if path == "" {
		return Config{}, nil, nil
	}
	if err := secretPathError(path); err != nil {
		return Config{}, nil, err
	}
	// The config decides where logins and signatures go: one another user
	// could change or swap is refused, as ssh refuses its own.
	if err := osguard.CheckPrivatePath(path); err != nil {
		return Config{}, nil, fmt.Errorf("config: %w", err)
	}
	b, err := readConfigFile(file)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return Config{}, nil, nil
	}
	if errors.As(err, new(*osguard.UnsafePathError)) {
		return Config{}, nil, fmt.Errorf("config: %w", err)
	}
	if errors.Is(err, os.ErrNotExist) {
		return Config{}, nil, &NoConfigError{Path: path}
	}
	if tl := new(osguard.TooLargeError); errors.As(err, &tl) {
		return Config{}, nil, fmt.Errorf("config %w, more than any config: check the file, or name another", err)
	}
	if err != nil {
		return Config{}, nil, fmt.Errorf("config %s: %w", safetext.Shown(path), err)
	}
	cfg, err := parseConfig(path, b)
	return cfg, b, err
}

// parseConfig reads a config's text, refusing unknown keys and invalid
// environments. Its refusals name path escaped (safetext.Shown): cleaned,
// a no-break space in it read as a space, naming another file.
func parseConfig(path string, b []byte) (Config, error) {
	shown := safetext.Shown(path)
	var cfg Config
	md, err := toml.Decode(string(b), &cfg)
	if err != nil {
		// The parser's words quote what it could not read whole: a
		// private key written as a number (0x…) among them.
		return Config{}, fmt.Errorf("config %s: %s", shown, safetext.Quoted(err.Error()))
	}
	if undec := md.Undecoded(); len(undec) > 0 {
		return Config{}, fmt.Errorf("config %s: unknown key %s%s", shown, safetext.Quoted(shownKey(undec[0])), didYouMean(undec[0]))
	}
	if cfg.Theme != "" && cfg.Theme != "light" && cfg.Theme != "dark" {
		return Config{}, fmt.Errorf("config %s: theme must be light or dark, not %s", shown, safetext.NameQuoted(cfg.Theme))
	}
	for name, env := range cfg.Environments {
		env.Name = name
		if name == SandboxEnv {
			// It would be taken for the embedded one (Embedded): its reviews
			// would say nothing real moves. env add refuses it too.
			return Config{}, fmt.Errorf("config %s: [env.%s]: %w", shown, name, &NameTakenError{Name: name, InConfig: true})
		}
		if err := env.Validate(); err != nil {
			return Config{}, fmt.Errorf("config %s: %w", shown, err)
		}
		cfg.Environments[name] = env
	}
	if err := caseTwins(cfg.Names()); err != nil {
		return Config{}, fmt.Errorf("config %s: %w", shown, err)
	}
	return cfg, nil
}

// caseTwin is the name, of sandbox and names, that name differs from in
// case alone, or "": a person reading a review takes the two for one, and
// Windows' credential store keeps one session for both. AddEnvironment
// refuses such a name, and a config written by hand (caseTwins) too.
func caseTwin(name string, names []string) string {
	for _, other := range append([]string{SandboxEnv}, names...) {
		if other != name && strings.EqualFold(other, name) {
			return other
		}
	}
	return ""
}

// caseTwins refuses sorted names two of which are case twins (caseTwin),
// or one that is sandbox's.
func caseTwins(names []string) error {
	for i, name := range names {
		switch other := caseTwin(name, names[:i]); other {
		case "":
		case SandboxEnv:
			return fmt.Errorf("[env.%s]: %s differs from sandbox, the embedded sandbox's name, in case alone, so a review naming it reads as the sandbox, where nothing real moves: rename the table", name, name)
		default:
			return fmt.Errorf("[env.%s] and [env.%s] differ in case alone: a person reading a review, and Windows' credential store, take the two for one; rename one of them", other, name)
		}
	}
	return nil
}

// Names lists the configured environments, sorted.
func (c Config) Names() []string {
	names := make([]string, 0, len(c.Environments))
	for n := range c.Environments {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// KnownNames lists the names --env accepts, for messages: the configured
// environments and the sandbox, as in "production, testnet or sandbox".
func (c Config) KnownNames() string { return JoinNames(append(c.Names(), SandboxEnv)) }

// JoinNames lists names as a sentence does: "a", "a or b", "a, b or c".
func JoinNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Lookup finds an environment by name. A name it refuses is said as any
// refused name is (safetext.NameQuoted): $SVCWALLET_ENV may hold a key or
// a recovery phrase set there by mistake, or escapes.
func (c Config) Lookup(name string) (Environment, error) {
	env, ok := c.Environments[name]
	if !ok {
		if len(c.Environments) == 0 {
			return Environment{}, fmt.Errorf("no environment %s: the config names none, so the only one is %s", safetext.NameQuoted(name), SandboxEnv)
		}
		return Environment{}, fmt.Errorf("no environment %s in the config; known: %s", safetext.NameQuoted(name), c.KnownNames())
	}
	return env, nil
}

// shownKey is a key as TOML writes it, every part that is no bare key
// quoted with its non-ASCII escaped: the TOML library's own form keeps a
// quoted key's bidi override or invisible character raw.
func shownKey(k toml.Key) string {
	parts := make([]string, len(k))
	for i, p := range k {
		parts[i] = p
		if p == "" || !safetext.IsToken(p) || strings.ContainsAny(p, ".:") {
			parts[i] = strconv.QuoteToASCII(p)
		}
	}
	return strings.Join(parts, ".")
}

// didYouMean names the known key closest to an unknown one (at most two
// edits away, at the same level), as "; did you mean auth_url?", or "".
func didYouMean(k toml.Key) string {
	if len(k) == 0 {
		return ""
	}
	var of reflect.Type
	switch {
	case len(k) == 1:
		of = reflect.TypeFor[Config]()
	case len(k) == 3 && k[0] == "env":
		of = reflect.TypeFor[Environment]()
	default:
		return ""
	}
	var names []string
	for i := range of.NumField() {
		if name, _, _ := strings.Cut(of.Field(i).Tag.Get("toml"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	best := ClosestName(k[len(k)-1], names)
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}
