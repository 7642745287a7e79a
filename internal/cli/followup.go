package cli

import (
	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/service/config"
)

// invocation is how one run of a command chose its environment. A command
// svcwallet prints for the user to run next (follow a withdrawal, resume
// it, submit a signature) repeats it, so that it reaches the same
// environment of the same config when run as printed: without --env it
// would go to $SVCWALLET_ENV, default_env or the embedded sandbox, which
// knows nothing of this run.
type invocation struct {
	env string // the environment in use
	// config is the config file the user named (--config, else
	// $SVCWALLET_CONFIG); "" for the default one.
	config string
	// configFile is the config file read, the default one included, for
	// messages that send the user to edit it.
	configFile string
}

// newInvocation is the invocation of a run on environment env whose
// --config flag was configFlag.
func newInvocation(env string, configFlag string, getenv func(string) string) invocation {
	v := invocation{env: env, config: configFlag}
	if v.config == "" && getenv != nil {
		v.config = getenv(configPathVar)
	}
	v.configFile = v.config
	if v.configFile == "" {
		v.configFile = config.DefaultConfigPath()
	}
	return v
}

// command is `svcwallet WORDS... --env NAME [--config PATH]`, each word
// quoted for the user's shell (PowerShell on Windows) where it needs to be,
// ready to copy and run; a --config path a terminal would not show as it
// is, left out and said so; each flag only where the command takes it
// (runnext.Command).
func (v invocation) command(words ...string) string {
	return runnext.Command(v.config, v.env, words...)
}

// commandOn is command for a command naming operands from outside (quote
// ids, a file), behind "--" when one begins with '-' (runnext.CommandOn).
func (v invocation) commandOn(words, operands []string, flags ...string) string {
	return runnext.CommandOn(v.config, v.env, words, operands, flags...)
}

// resume is `svcwallet withdraw resume QUOTE_ID` on this run's environment.
func (v invocation) resume(quoteID string) string {
	return v.commandOn([]string{"withdraw", "resume"}, []string{quoteID})
}

// follow is the command that follows withdrawal quoteID to its end:
// `svcwallet status QUOTE_ID --watch`, on this run's environment.
func (v invocation) follow(quoteID string) string {
	return v.commandOn([]string{"status"}, []string{quoteID}, "--watch")
}

// followIt is the line that sends the user to follow an unfinished
// withdrawal: "follow it with" its command.
func (v invocation) followIt(quoteID string) string {
	return "follow it with " + v.follow(quoteID)
}
