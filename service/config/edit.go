package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// The config is edited in its text, never rewritten from what was decoded:
// a TOML encoder would drop the user's comments and order. Each edit
// appends a table, replaces a line or takes a table out, then decodes the
// result and writes it only when it says exactly what was meant (the
// other environments and settings unchanged).

// NameTakenError: the config (or the built-in sandbox) already has the name.
type NameTakenError struct {
	Name string
	// InConfig: a config's own table takes the name, which earlier
	// versions read as an environment of its own.
	InConfig bool
	// Like is the name the config has that Name differs from in case
	// alone, "" when it has Name itself.
	Like string
}

func (e *NameTakenError) Error() string {
	if e.Name == SandboxEnv && e.InConfig {
		return "sandbox names the embedded sandbox, which is always there (earlier versions took this table for a real service): " +
			"rename the table, say to [env.testnet], and a default_env that names it; whatever still asks for sandbox then gets the embedded one, where nothing real moves"
	}
	if e.Name == SandboxEnv {
		return "sandbox names the embedded sandbox, which is always there: choose another name"
	}
	if e.Like != "" {
		return fmt.Sprintf("the config names an environment %s, which %s differs from in case alone: a person reading a review, and Windows' credential store, take the two for one; choose another name", e.Like, e.Name)
	}
	return fmt.Sprintf("the config already names an environment %s", e.Name)
}

// SameServiceError: another name already reaches the service.
type SameServiceError struct {
	Name, Other string
	Service     Service
}

func (e *SameServiceError) Error() string {
	return fmt.Sprintf("%s already reaches %s: two names for one service split its sessions and withdrawals between them", e.Other, e.Service)
}

// DefaultEnvError: the environment to remove is default_env.
type DefaultEnvError struct{ Name string }

func (e *DefaultEnvError) Error() string {
	return fmt.Sprintf("%s is the default environment (default_env): choose another default first", e.Name)
}

// ErrNotEdited: the file says something its edit cannot be sure of (an
// environment written another way than an [env.NAME] table, a line the
// edit would misread); it was left as it was.
var ErrNotEdited = errors.New("the config file could not be edited safely, and was left as it was: edit it by hand (docs/config.md)")

// CheckNewName refuses a name no new environment of cfg may take: one
// Validate refuses, the sandbox's, or one cfg has, in any case
// (NameTakenError). env add asks it before its questions, so none is
// answered for nothing.
func CheckNewName(cfg Config, name string) error {
	if err := checkEnvName(name); err != nil {
		return err
	}
	if _, ok := cfg.Environments[name]; ok || name == SandboxEnv {
		return &NameTakenError{Name: name}
	}
	switch like := caseTwin(name, cfg.Names()); like {
	case "":
		return nil
	case SandboxEnv:
		return &NameTakenError{Name: SandboxEnv}
	default:
		return &NameTakenError{Name: name, Like: like}
	}
}

// AddEnvironment appends e as an [env.NAME] table to the config at path,
// made if missing. A name already there, in any case, or a second name for the service
// another name reaches (unless alias), is refused.
func AddEnvironment(path string, e Environment, alias bool) (Written, error) {
	if err := e.Validate(); err != nil {
		return Written{}, err
	}
	return editConfig(path, func(text string, before Config) (string, error) {
		if err := CheckNewName(before, e.Name); err != nil {
			return "", err
		}
		for _, name := range before.Names() {
			if other := before.Environments[name]; !alias && other.Service() == e.Service() {
				return "", &SameServiceError{Name: e.Name, Other: name, Service: e.Service()}
			}
		}
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		return text + envTable(e), nil
	}, func(before, after Config) bool {
		want := cloneConfig(before)
		want.Environments[e.Name] = e
		return reflect.DeepEqual(want, after)
	})
}

// UseEnvironment sets default_env to name, which the config must define.
func UseEnvironment(path, name string) (Written, error) {
	return editConfig(path, func(text string, before Config) (string, error) {
		if _, err := before.Lookup(name); err != nil && name != SandboxEnv {
			return "", err
		}
		lines := strings.SplitAfter(text, "\n")
		first := len(lines)
		for i, l := range lines {
			if tableHeader().MatchString(l) {
				first = i
				break
			}
			if m := defaultEnvLine().FindStringSubmatchIndex(l); m != nil {
				lines[i] = l[:m[3]] + strconv.Quote(name) + l[m[5]:]
				return strings.Join(lines, ""), nil
			}
		}
		at := settingsEnd(lines[:first])
		line := "default_env = " + strconv.Quote(name) + "\n"
		if before := strings.Join(lines[:at], ""); before != "" && !strings.HasSuffix(before, "\n") {
			line = "\n" + line
		}
		if at < first && isComment(lines[at]) {
			line += "\n"
		}
		lines = append(lines[:at], append([]string{line}, lines[at:]...)...)
		return strings.Join(lines, ""), nil
	}, func(before, after Config) bool {
		want := cloneConfig(before)
		want.DefaultEnv = name
		return reflect.DeepEqual(want, after)
	})
}

// settingsEnd is where a new top-level setting goes among the lines
// before the first table: after the last setting, else above the comment
// right over the first table (which is that table's, not the setting's).
func settingsEnd(top []string) int {
	at := len(top)
	for at > 0 && isComment(top[at-1]) {
		at--
	}
	for i := at - 1; i >= 0; i-- {
		if t := strings.TrimSpace(top[i]); t != "" && !isComment(t) {
			return i + 1
		}
	}
	return at
}

func isComment(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "#") }

// RemoveEnvironment takes name's [env.NAME] table, and its subtables, out
// of the config, with the comment right above it; the other comments stay.
// The default environment is refused.
func RemoveEnvironment(path, name string) (Written, error) {
	return editConfig(path, func(text string, before Config) (string, error) {
		if _, err := before.Lookup(name); err != nil {
			return "", err
		}
		if before.DefaultEnv == name {
			return "", &DefaultEnvError{Name: name}
		}
		// Comments and blank lines inside the table stay when nothing of
		// the table follows them: they are the next table's, or the file's.
		var out, pending []string
		inside, found := false, false
		for _, l := range strings.SplitAfter(text, "\n") {
			if tableHeader().MatchString(l) {
				if ours := isEnvHeader(l, name); ours {
					if !inside {
						out = withoutHeading(out)
					}
					inside, found, pending = true, true, nil
					continue
				}
				inside = false
				out, pending = append(out, pending...), nil
			}
			switch t := strings.TrimSpace(l); {
			case !inside:
				out = append(out, l)
			case t == "" || strings.HasPrefix(t, "#"):
				pending = append(pending, l)
			default:
				pending = nil
			}
		}
		if !found {
			return "", ErrNotEdited
		}
		return strings.Join(append(out, pending...), ""), nil
	}, func(before, after Config) bool {
		want := cloneConfig(before)
		delete(want.Environments, name)
		return reflect.DeepEqual(want, after)
	})
}

// withoutHeading is out without the comment right above a table taken
// out (that table's), and the blank lines before it; a comment that starts
// the file is the file's and stays.
func withoutHeading(out []string) []string {
	j := len(out)
	for j > 0 && isComment(out[j-1]) {
		j--
	}
	if j == len(out) {
		return out
	}
	for j > 0 && strings.TrimSpace(out[j-1]) == "" {
		j--
	}
	if j == 0 {
		return out
	}
	return out[:j]
}

// The patterns of config editing are compiled on first use: every command
// links this package, few edit the config.
var (
	tableHeader    = lazyRegexp(`^\s*\[`)
	defaultEnvLine = lazyRegexp(`^(\s*default_env\s*=\s*)("[^"\n]*"|'[^'\n]*')`)
	bareKey        = lazyRegexp(`^[A-Za-z0-9_-]+$`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// isEnvHeader reports whether the table header line l opens name's
// environment or one of its subtables.
func isEnvHeader(l, name string) bool {
	key := regexp.QuoteMeta(name)
	re := regexp.MustCompile(`^\s*\[\s*env\s*\.\s*(` + key + `|"` + key + `"|'` + key + `')\s*[.\]]`)
	return re.MatchString(l)
}

// envTable is e as the config writes it.
func envTable(e Environment) string {
	key := e.Name
	if !bareKey().MatchString(key) {
		key = strconv.Quote(key)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[env.%s]\n", key)
	for _, kv := range [][2]string{{"auth_url", e.AuthURL}, {"base_url", e.BaseURL}, {"market_data_url", e.MarketDataURL}} {
		fmt.Fprintf(&b, "%-15s = %s\n", kv[0], tomlString(kv[1]))
	}
	fmt.Fprintf(&b, "%-15s = %d\n", "chain_id", e.ChainID)
	for _, kv := range [][2]string{{"domain_name", e.DomainName}, {"cookie_name", e.CookieName}, {"account_id_header", e.AccountIDHeader}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "%s = %s\n", kv[0], tomlString(kv[1]))
		}
	}
	return b.String()
}

// tomlString is s as a TOML basic string; what Validate lets through holds
// no control character.
func tomlString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

func cloneConfig(c Config) Config {
	envs := make(map[string]Environment, len(c.Environments)+1)
	for k, v := range c.Environments {
		envs[k] = v
	}
	c.Environments = envs
	return c
}

// editConfig applies change to the config's text, and writes the result
// only when its decoding is what ok expects of it: atomically, 0600, to the
// file a link at path names (the link stays). A missing file is made. It
// holds the config's lock (lockEdit: its folder's, nothing made beside the
// config) from the read to the write, so two svcwallet
// processes editing at once both land; and it reads the file again before
// writing, making the edit again on what another program (an editor)
// wrote meanwhile, never writing over it. It returns where it wrote.
func editConfig(path string, change func(text string, before Config) (string, error), ok func(before, after Config) bool) (Written, error) {
	if path == "" {
		return Written{}, errors.New("no config folder: set $HOME, or name a config file")
	}
	if err := secretPathError(path); err != nil {
		return Written{}, err // before its folder is made, named by the secret
	}
	real, written := EditedFile(path), Written{Path: path}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		written.Link = real
	}
	if err := os.MkdirAll(filepath.Dir(real), 0o700); err != nil {
		return Written{}, fmt.Errorf("config folder: %w", err)
	}
	unlock, err := lockEdit(real)
	if err != nil {
		return Written{}, fmt.Errorf("config %s: %w", safetext.Shown(path), err)
	}
	defer unlock()
	for range editTries {
		b, text, err := editedText(path, real, change, ok)
		if err != nil {
			return Written{}, err
		}
		if now, err := readConfigFile(real); !bytes.Equal(now, b) && !(len(b) == 0 && errors.Is(err, fs.ErrNotExist)) {
			continue
		}
		if err := osguard.WriteStateFile(real, []byte(text)); err != nil {
			return Written{}, fmt.Errorf("config %s: %w", safetext.Shown(path), err)
		}
		return written, nil
	}
	return Written{}, fmt.Errorf("config %s changed %d times while it was being edited, and was left as another program wrote it: run the command again once nothing else edits it", safetext.Shown(path), editTries)
}

// Written is where an edit of the config wrote: Path, as it was named,
// and Link, when Path is a link (a dotfiles manager's, kept), the file it
// named, which the edit wrote: looked up once, before the edit, so what
// is said is what was written whatever the link names after. A linked
// folder on the way is not said.
type Written struct{ Path, Link string }

// EditedFile is the file an edit of the config at path writes: the one a
// link there names (a dotfiles manager's, kept as a link), else path.
func EditedFile(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// editTries is how many times an edit is made again on what another
// program wrote meanwhile before it gives up.
const editTries = 3

// editedText is the config's text read (b) and the text change makes of
// it, once ok agrees with what it says.
func editedText(path, real string, change func(text string, before Config) (string, error), ok func(before, after Config) bool) (b []byte, text string, err error) {
	// One read, checked and changed: decoded from another, a config
	// written between the two was refused as not edited, or edited on
	// what was not checked.
	before, b, err := loadConfigFile(path, real, false)
	if err != nil {
		return nil, "", err
	}
	if text, err = change(string(b), cloneConfig(before)); err != nil {
		return nil, "", err
	}
	after, err := parseConfig(path, []byte(text))
	if err != nil || !ok(cloneConfig(before), cloneConfig(after)) {
		return nil, "", ErrNotEdited
	}
	return b, text, nil
}
