// Package runnext prints the svcwallet commands a face tells the user to
// run next, each with the flags that choose where it acts: the command
// line's, plain mode's and the console's one way.
package runnext

import (
	"slices"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// Command is the svcwallet command line words for the user to run next,
// on environment env of the config file the user named (config; "" for
// the default one), through safetext.Command: --env env and --config
// config follow the words where the command takes them, and only there,
// since a flag a command does not take makes it refuse the whole line. The key, sandbox,
// help and like commands (and auth or builder alone) read no config; env
// and auth status read the config and choose no environment.
func Command(config, env string, words ...string) string {
	line, config := withFlags(config, env, words)
	return safetext.Command("--config", config, line...)
}

// withFlags is svcwallet, words and --env env where words take it, and
// config, or "" where they take no --config.
func withFlags(config, env string, words []string) ([]string, string) {
	takesEnv, takesConfig := flagsOf(words)
	line := append([]string{"svcwallet"}, words...)
	if takesEnv && env != "" {
		line = append(line, "--env", env)
	}
	if !takesConfig {
		config = ""
	}
	return line, config
}

// flagsOf says whether the svcwallet command words names takes --env and
// --config (the command line's own test holds this to its flags).
func flagsOf(words []string) (takesEnv, takesConfig bool) {
	first, second := "", ""
	if len(words) > 0 {
		first = words[0]
	}
	if len(words) > 1 {
		second = words[1]
	}
	switch {
	case first == "key" || first == "sandbox" || first == "version" || first == "man" || first == "help" || first == "completion":
		return false, false
	case (first == "auth" || first == "builder") && second == "":
		return false, false // the group alone: its help
	case first == "env" || first == "auth" && second == "status":
		return false, true
	}
	return true, true
}

// CommandOn is Command for a command naming operands from outside (quote
// ids, a file): svcwallet WORDS OPERANDS FLAGS. An operand beginning with
// '-' would be read as a flag (status -abc, a quote id journaled before
// such ids were refused), so then the operands go last, after "--", which
// ends the flags: svcwallet status --watch --env NAME -- -abc.
//
// status reads its ids from standard input for the operand "-", after
// "--" too, and "-" is a quote id the spec and the journal allow: so it
// is given there, as the one line status then reads (printf '%s\n' - |
// svcwallet status … -- -; safetext.Piped).
func CommandOn(config, env string, words, operands []string, flags ...string) string {
	if !slices.ContainsFunc(operands, func(o string) bool { return strings.HasPrefix(o, "-") }) {
		return Command(config, env, slices.Concat(words, operands, flags)...)
	}
	line, config := withFlags(config, env, slices.Concat(words, flags))
	printed := safetext.CommandEnding("--config", config, line, operands...)
	if len(words) > 0 && words[0] == "status" && slices.Contains(operands, "-") {
		printed = safetext.Piped("-", printed)
	}
	return printed
}
