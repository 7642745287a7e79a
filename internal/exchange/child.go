package exchange

import (
	"context"
	"os"
	"os/exec"
	"strings"

	"github.com/svcwallet/svcwallet/internal/signer"
)

// Command is exec.Command with ChildEnv as the child's environment. Every
// process svcwallet starts (tmux, the browser opener, a signing command) is
// made here or by CommandContext, so a new one cannot forget
// (TestOnlyCommandStartsChildren).
func Command(name string, arg ...string) *exec.Cmd {
	c := exec.Command(name, arg...)
	c.Env = ChildEnv()
	return c
}

// CommandContext is Command bound to ctx: the child is killed when ctx ends
// (a notify command, a signing command).
func CommandContext(ctx context.Context, name string, arg ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, name, arg...)
	c.Env = ChildEnv()
	return c
}

// EnvVarPrefix starts the name of every environment variable svcwallet reads.
const EnvVarPrefix = "SVCWALLET_"

// ChildEnv is this process's environment without any SVCWALLET_* variable:
// those hold a private key, an API key or svcwallet's own settings, and no
// child needs them. The prefix is matched ignoring case, as Windows names are.
func ChildEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(strings.ToUpper(kv), EnvVarPrefix) {
			env = append(env, kv)
		}
	}
	return env
}

// SignCommandStarter is how both faces start a signing command: in a
// process group of its own that ends whole with its context
// (GroupCommandContext), so nothing the command started (the signer a
// wrapper script runs) outlives a cancel or a timeout. With lendTerminal
// (the command line), when svcwallet is its terminal's foreground job, the
// group is the terminal's foreground while the command runs, as a shell
// runs a job: the command may prompt there (cast's keystore passphrase)
// and ctrl+c reaches it; svcwallet takes the terminal back once it has
// ended. The console lends nothing: it reads the terminal itself.
func SignCommandStarter(lendTerminal bool) signer.Starter {
	return func(ctx context.Context, name string, arg ...string) (*exec.Cmd, func()) {
		c := GroupCommandContext(ctx, name, arg...)
		if !lendTerminal {
			return c, nil
		}
		return c, lendForeground(c)
	}
}
