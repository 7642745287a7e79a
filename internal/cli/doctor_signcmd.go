package cli

import (
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/signer"
)

// checkSignCommandArgs warns of a signing command, an environment's
// sign_command or $SVCWALLET_SIGN_COMMAND, that gives its program a key, a
// recovery phrase or a password as an argument: every user of the machine
// reads it with ps while it runs. The option is named, never its value.
func (c doctorCmd) checkSignCommandArgs(cfg config.Config, add func(check, detail, fix string)) {
	type command struct{ where, line string }
	var commands []command
	for _, name := range cfg.Names() {
		if e, _ := cfg.Lookup(name); e.SignCommand != "" {
			commands = append(commands, command{"environment " + name + "'s sign_command", e.SignCommand})
		}
	}
	if v := c.env.Getenv(signer.SignCommandEnvVar); v != "" {
		commands = append(commands, command{"$" + signer.SignCommandEnvVar, v})
	}
	warned := false
	for _, cmd := range commands {
		if words := signer.ArgumentSecretWords(cmd.line); words != "" {
			add("signing command", cmd.where+": "+words, signer.ArgumentSecretFix)
			warned = true
		}
	}
	if len(commands) > 0 && !warned {
		add("signing command", "gives its program no key, recovery phrase or password as an argument", "")
	}
}
