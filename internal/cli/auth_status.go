package cli

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/session"
)

// authStatusJSON is one environment of auth status --json.
type authStatusJSON struct {
	Env       string     `json:"env"`
	State     string     `json:"state"` // kept, ended, other_service, unreadable, unknown_env
	Service   string     `json:"service,omitempty"`
	AccountID string     `json:"account_id,omitempty"`
	Method    string     `json:"method,omitempty"`
	Expires   *time.Time `json:"expires,omitempty"`
	Kept      string     `json:"kept,omitempty"`
	Renews    bool       `json:"renews"`
	// Refused: the service refused the session (ended: Expires is when).
	Refused bool   `json:"refused,omitempty"`
	Detail  string `json:"detail,omitempty"`
}

func (a *app) authStatusCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "status",
		Short: "Say which environments hold a session, until when, for which account",
		Long: `Lists the environments svcwallet auth login kept a session for: the service it
is bound to, the account, how it logged in, until when, where it is kept, and
whether it renews itself (an API key is kept with it). A session is valid as
far as this machine knows, until a command that uses it is refused: it then
shows as refused. A session kept for a
service the environment's name no longer reaches is shown, and not used.
Nothing is sent.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return a.authStatus() },
	}
	c.Flags().StringVar(&a.configPath, "config", "", "config file (else $"+configPathVar+")")
	return c
}

func (a *app) authStatus() error {
	cfg, _, err := loadConfig(a.configPath, a.env.Getenv)
	if err != nil {
		return otherError(err)
	}
	store := a.sessionStore()
	names, err := store.Names()
	if err != nil {
		return failure(exitFailed, "the session file cannot be read: %v", err)
	}
	rows := make([]authStatusJSON, 0, len(names))
	for _, name := range names {
		rows = append(rows, authRow(store, cfg, name))
	}
	if a.env.JSON {
		return outputError(writeJSON(a.env.Stdout, struct {
			Sessions []authStatusJSON `json:"sessions"`
		}{rows}))
	}
	out := plain.Fitted(a.env.Stdout) // wrapped at spaces on a terminal, its commands whole
	if len(rows) == 0 {
		fmt.Fprintf(out, "No session is kept: %s keeps one.\n", newInvocation("", a.configPath, a.env.Getenv).command("auth", "login", "--env", "NAME"))
		return nil
	}
	for _, r := range rows {
		fmt.Fprintln(out, authLine(r, newInvocation(r.Env, a.configPath, a.env.Getenv)))
	}
	return nil
}

// authRow reads what is kept for name, as auth status shows it.
func authRow(store session.Store, cfg config.Config, name string) authStatusJSON {
	r := authStatusJSON{Env: name}
	e, err := cfg.Lookup(name)
	if err != nil {
		r.State, r.Detail = "unknown_env", "the config names no such environment"
		return r
	}
	r.Service = e.Service().String()
	l, err := store.Load(e)
	var expired *session.ExpiredError
	var other *session.OtherServiceError
	switch {
	case err == nil:
		r.State, r.AccountID, r.Method, r.Kept, r.Renews = "kept", l.AccountID, l.Method, string(l.Where), l.APIKey != ""
		t := follow.OutputTime(l.Expires)
		r.Expires = &t
	case errors.As(err, &expired):
		t := follow.OutputTime(expired.Entry.Expires)
		r.State, r.AccountID, r.Method, r.Kept, r.Expires = "ended", expired.Entry.AccountID, expired.Entry.Method, string(expired.Where), &t
		r.Refused = expired.Entry.Refused
	case errors.As(err, &other):
		r.State, r.Detail = "other_service", "kept for "+other.Kept.Service.String()+"; not sent"
	case errors.Is(err, session.ErrNone):
		r.State, r.Detail = "none", "the credential store holds it no more"
	default:
		r.State, r.Detail = "unreadable", err.Error()
	}
	return r
}

// authLine is one row of auth status for a person; v, its environment's
// invocation, makes the commands it names.
func authLine(r authStatusJSON, v invocation) string {
	where := map[string]string{"keyring": "in the credential store", "file": "in the session file (--insecure-storage)"}[r.Kept]
	switch r.State {
	case "kept":
		renews := "once it ends, commands log in as they would without it"
		if r.Renews {
			renews = "renews itself with the API key kept"
		}
		return fmt.Sprintf("%s (%s): account %s, by %s, until %s as far as this machine knows (not checked with the service); %s, %s", r.Env, r.Service, r.AccountID, r.Method,
			r.Expires.Format("2006-01-02 15:04 UTC"), where, renews)
	case "ended":
		if r.Refused {
			return fmt.Sprintf("%s (%s): account %s, refused by the service %s (it ended or was revoked); %s keeps a new one, else the next command logs in as it would without it",
				r.Env, r.Service, r.AccountID, r.Expires.Format("2006-01-02 15:04 UTC"), v.command("auth", "login"))
		}
		return fmt.Sprintf("%s (%s): account %s, ended %s; the next command logs in as it would without it", r.Env, r.Service, r.AccountID, r.Expires.Format("2006-01-02 15:04 UTC"))
	}
	return strings.TrimSpace(fmt.Sprintf("%s: %s (%s forgets it)", r.Env, r.Detail, v.command("auth", "logout")))
}

func (a *app) authLogoutCommand() *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "logout",
		Short: "Forget the session kept for an environment",
		Long: `Forgets the session (and the API key) kept for the environment, or for every
one with --all. Nothing is sent: the service has no logout, so a session
someone copied stays valid until it ends.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error { return a.authLogout(all) },
	}
	c.Flags().BoolVar(&all, "all", false, "forget every kept session")
	a.envFlags(c)
	return c
}

func (a *app) authLogout(all bool) error {
	store := a.sessionStore()
	var names []string
	if all {
		var err error
		if names, err = store.Names(); err != nil {
			return failure(exitFailed, "the session file cannot be read: %v", err)
		}
	} else {
		// The name chosen as every command chooses it; one the config no
		// longer names can still be forgotten.
		cfg, _, err := loadConfig(a.configPath, a.env.Getenv)
		if err != nil {
			return otherError(err)
		}
		name, _ := chooseEnvBy(a.envName, a.env.Getenv, cfg)
		names = []string{name}
	}
	for _, name := range names {
		had, err := store.Forget(name)
		switch {
		case err != nil:
			return failure(exitFailed, "the session kept for %s could not be forgotten: %v", name, err)
		case had:
			fmt.Fprintf(a.env.Stdout, "Forgot the session kept for %s. Nothing was sent: it stays valid at the service until it ends.\n", name)
		default:
			fmt.Fprintf(a.env.Stdout, "No session is kept for %s.\n", name)
		}
	}
	return nil
}
