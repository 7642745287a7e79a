package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/internal/signer"
)

// commandError ends a command: its exit status, a code for scripts and a
// message for people. report prints it in the one style every command
// uses: one line on stderr ("svcwallet CMD: message", and for a usage error
// a line naming --help), or with --json one object on stdout.
type commandError struct {
	Cmd     string // "svcwallet status"
	Code    string // "usage", "not_found", "failed", ...
	Message string
	Exit    int
	QuoteID string // the status stream's error about one id
	printed bool   // the command has said it already (its output carries the status)
}

func (e *commandError) Error() string { return e.Cmd + ": " + e.Message }

// usageError is a command line the user must correct: exit status 2.
func usageError(cmd, format string, a ...any) *commandError {
	return &commandError{Cmd: cmd, Code: "usage", Message: fmt.Sprintf(format, a...), Exit: exitUsage}
}

// failure is a command that could not do its work.
func failure(cmd, code string, exit int, format string, a ...any) *commandError {
	return &commandError{Cmd: cmd, Code: code, Message: fmt.Sprintf(format, a...), Exit: exit}
}

// codeLogin is the --json error code of a login that failed.
const codeLogin = "login"

// loginFailed is how every command that logs in (status, withdraw, withdraw
// resume and submit, deposit, history --refresh) reports that its login
// failed, err from logIn or logInWith: a credential the user must set or
// choose otherwise is a usage error (2); a credential the service refused,
// a wallet login the key source did not sign, a service that could not be
// reached or whose answer could not be read are exit 5, code "login", in
// the words of loginError. Not 1: status says "not paid out" with it and
// withdraw "refused, nothing paid", and a script must not take a login
// that failed for a withdrawal's outcome.
func loginFailed(cmd string, err error) *commandError {
	if isUsage(err) {
		return usageError(cmd, "%v", err)
	}
	return &commandError{Cmd: cmd, Code: codeLogin, Message: err.Error(), Exit: exitError}
}

// errorJSON is the --json form of an error (README, "JSON output").
type errorJSON struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Exit    int    `json:"exit"`
	} `json:"error"`
	QuoteID string `json:"quote_id,omitempty"`
}

// report prints e (unless its command has) and returns its exit status.
func (env CLIEnv) report(e *commandError) int {
	if e.printed {
		return e.Exit
	}
	if env.JSON {
		var out errorJSON
		out.Error.Code, out.Error.Message, out.Error.Exit = e.Code, e.Message, e.Exit
		out.QuoteID = e.QuoteID
		_ = writeJSONLine(env.Stdout, out)
		return e.Exit
	}
	fmt.Fprintf(env.Stderr, "%s: %s\n", e.Cmd, e.Message)
	if e.Code == "usage" {
		fmt.Fprintf(env.Stderr, "run '%s --help' for usage\n", e.Cmd)
	}
	return e.Exit
}

// oneLine puts a message from cobra on one line: its suggestions ("Did you
// mean this?" and a name a line) become "; did you mean status?".
func oneLine(s string) string {
	line, rest, _ := strings.Cut(s, "\n")
	var names []string
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(l, "\t") {
			names = append(names, strings.TrimSpace(l))
		}
	}
	if len(names) > 0 {
		line += "; did you mean " + strings.Join(names, " or ") + "?"
	}
	return line
}

// jsonRequested reports whether the line asks for --json, for errors met
// before the flags are parsed.
func jsonRequested(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json":
			return true
		}
		if v, ok := strings.CutPrefix(a, "--json="); ok {
			on, err := strconv.ParseBool(v)
			return err == nil && on
		}
	}
	return false
}

// looksLikeKeyArgument reports whether the arguments hold the shape of a
// private key anywhere (in -xKEY, --flag=a,KEY, " KEY" alike), in one or
// split over arguments as the shell splits a wrapped key
// (safetext.HoldsKeyShape of the line). A signature, 0x and exactly 130 hex
// digits (withdraw submit's --signature), is public and not a key's shape.
func looksLikeKeyArgument(args []string) bool {
	line := make([]string, len(args))
	for i, a := range args {
		line[i] = a
		if _, err := signer.ParseSignature(strings.TrimPrefix(a, "--signature=")); err == nil && !strings.ContainsAny(a, " \t\n") {
			line[i] = "|" // parts no key with what is around it
		}
	}
	return safetext.HoldsKeyShape(strings.Join(line, " "))
}

// refuseKeyArgument words the refusal of a key on the command line, with
// the way the command takes one instead. It never repeats the argument.
func refuseKeyArgument(args []string) *commandError {
	cmd, how := "svcwallet", "svcwallet reads keys from $"+signer.KeyEnvVar+", a keystore file or a hidden prompt"
	if len(args) > 0 {
		switch args[0] {
		case "key":
			cmd, how = "svcwallet key", "pipe it to `svcwallet key import` on stdin or type it at the prompt"
		case "builder":
			cmd, how = "svcwallet builder", "export it in $"+signer.KeyEnvVar+" or use --keystore-file FILE"
		}
	}
	return usageError(cmd, "refusing a private key on the command line: other users can read it in the process list and your shell history keeps it; %s", how)
}
