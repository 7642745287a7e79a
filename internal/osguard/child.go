package osguard

import (
	"context"
	"os"
	"os/exec"
	"strings"
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
