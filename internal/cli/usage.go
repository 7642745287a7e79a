package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
)

// The usage errors of the line itself: arguments a command does not take,
// and commands and flags it does not have, with the names meant.

// noArgs refuses any argument as a usage error of the command.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		// Not echoed: a stray argument may be something secret.
		return usageError("%s takes no arguments (got %d)", c.Name(), len(args))
	}
	return nil
}

// rootArgs is cobra's check of the root's arguments (unknownCommand).
func rootArgs(c *cobra.Command, args []string) error {
	if len(args) == 0 || !c.HasSubCommands() {
		return nil
	}
	return unknownCommand(c, args[0])
}

// subcommandOnly refuses an argument that names no subcommand
// (unknownCommand).
func subcommandOnly(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return unknownCommand(c, args[0])
}

// unknownCommand says typed names no command of c, with the commands it
// is a typo or two from, and a group's commands (the root's are many).
// One holding an escape or a letter outside ASCII is shown as typed
// (safetext.ASCIIShown) with no command guessed from it: cleaned, stat
// ESC [0m us would read as status, and stаtus (a Cyrillic а) is near it.
func unknownCommand(c *cobra.Command, typed string) error {
	name, near := fmt.Sprintf("%.32q", safetext.Quoted(typed)), []string(nil)
	if shown := safetext.ASCIIShown(typed); shown != typed {
		name = fmt.Sprintf("%.40s", safetext.Quoted(shown))
	} else {
		if c.SuggestionsMinimumDistance <= 0 {
			c.SuggestionsMinimumDistance = 2 // as cobra's own suggestions
		}
		near = c.SuggestionsFor(typed)
	}
	if !c.HasParent() {
		if len(near) > 0 {
			return usageError("unknown command %s for %q; did you mean %s?", name, c.CommandPath(), config.JoinNames(near))
		}
		return usageError("unknown command %s for %q", name, c.CommandPath())
	}
	if len(near) > 0 {
		return usageError("unknown command %s; did you mean %s? (the commands are: %s)", name, config.JoinNames(near), subcommandNames(c))
	}
	return usageError("unknown command %s; the commands are: %s", name, subcommandNames(c))
}

// badFlag says a flag the line gets wrong as a usage error; an unknown
// --flag near one the command takes names it, as a mistyped command does.
func badFlag(c *cobra.Command, err error) error {
	// The root parses its flags before its arguments (rootArgs): in
	// sttus --watch, the command before the flag is what is wrong.
	if !c.HasParent() && len(c.Flags().Args()) > 0 {
		return rootArgs(c, c.Flags().Args())
	}
	var unknown *pflag.NotExistError
	if errors.As(err, &unknown) {
		return unknownFlag(c, unknown)
	}
	var missing *pflag.ValueRequiredError
	if errors.As(err, &missing) && missing.GetFlag() != nil {
		f := missing.GetFlag()
		// The value's name where its help names one (-n, --limit N).
		if name, _ := pflag.UnquoteUsage(f); name != f.Value.Type() {
			return usageError("--%s needs a value: --%s %s", f.Name, f.Name, name)
		}
		return usageError("--%s needs a value", f.Name)
	}
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) {
		if want, ok := flagValueWords[invalid.GetFlag().Value.Type()]; ok {
			return usageError("--%s: %s is not %s", invalid.GetFlag().Name, safetext.NameQuoted(invalid.GetValue()), want)
		}
	}
	return usageError("%w", err)
}

// flagValueWords says what a flag of each of pflag's types takes, in place
// of the parser's own error ("strconv.ParseInt: parsing …: invalid syntax").
var flagValueWords = map[string]string{
	"int":      "a whole number",
	"uint":     "a whole number, 0 or more",
	"uint64":   "a whole number, 0 or more",
	"duration": "a duration with its unit, such as 3s, 90s or 2m",
	"bool":     "true or false (the flag alone is true)",
}

// unknownFlag says a flag c does not take as typed, its escapes and
// letters outside ASCII made visible (safetext.ASCIIShown): cleaned, --js
// ESC [31m on would read as --json, which exists. Only a name of printable
// ASCII is held near the flags c takes (nearestFlags).
func unknownFlag(c *cobra.Command, unknown *pflag.NotExistError) error {
	name := unknown.GetSpecifiedName()
	if shorts := unknown.GetSpecifiedShortnames(); shorts != "" {
		if shown := safetext.ASCIIShown("-" + shorts); shown != "-"+shorts {
			return usageError("unknown shorthand flag in %s", shown)
		}
		return usageError("%w", unknown)
	}
	if shown := safetext.ASCIIShown("--" + name); shown != "--"+name {
		return usageError("unknown flag: %s", shown)
	}
	near := nearestFlags(c, name)
	if len(near) == 0 {
		return usageError("unknown flag: --%s", name)
	}
	for i := range near {
		near[i] = "--" + near[i]
	}
	return usageError("unknown flag: --%s; did you mean %s?", name, config.JoinNames(near))
}

// nearestFlags are the flags of c that typed begins (--max for --max-fee),
// all of them, else those a typo or two away, all equally near ones: one
// guessed among several may be the wrong one.
func nearestFlags(c *cobra.Command, typed string) []string {
	var names, begun []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		names = append(names, f.Name)
		if len(typed) >= 2 && strings.HasPrefix(f.Name, typed) {
			begun = append(begun, f.Name)
		}
	})
	if len(begun) > 0 {
		return begun
	}
	return config.ClosestNames(typed, names)
}

// giveA answers a command that holds subcommands and does nothing alone
// (auth, builder, env, key, completion): it names them, as what to give.
func giveA(what string) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, _ []string) error {
		return usageError("give a %s: %s", what, subcommandNames(c))
	}
}

func subcommandNames(c *cobra.Command) string {
	var names []string
	for _, s := range c.Commands() {
		if s.IsAvailableCommand() {
			names = append(names, s.Name())
		}
	}
	return strings.Join(names, ", ")
}
