package cli

import (
	"context"
	"errors"
	"os"
	"slices"
	"time"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/follow"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
)

// runPlain runs the console's flows as line prompts (plain.Console), on
// the environments the console offers. It needs no terminal: without one
// it reads answers as lines. ctrl+c (or SIGTERM, SIGHUP: ctx's end) ends
// it with 128 + the signal's number once it has said what was signed or
// sent.
func (a *app) runPlain(ctx context.Context) error {
	env := a.env
	cfg, chosen, err := a.chosenEnv()
	if err != nil {
		return err
	}
	targets, closeAll, err := openTargets(env, cfg, chosen, a.keptOnly)
	if err != nil {
		return failure(exitFailed, "%w", err)
	}
	defer closeAll()
	keystoreDir, _ := signer.DefaultKeystoreDir(env.Getenv)
	var running signer.Running
	c := &plain.Console{KeystoreDir: keystoreDir, Getenv: env.Getenv, ConfigFlag: newInvocation("", a.configPath, env.Getenv).config,
		Now: time.Now, After: time.After, Nonce: signer.NewNonce,
		LoadKeystore: func(path, pass string) (signer.Key, error) { return signer.LoadKeystoreKey(path, pass) },
		Running:      &running, PollInterval: follow.DefaultPollInterval, Gate: plain.TerminalGate(env.Stdin, env.Stdout),
		EarlierJournals: a.leftBeside}
	c.Default = chosen // an empty line takes what every command would
	if a.envName != "" || env.Getenv(envNameVar) != "" {
		c.Given = chosen // no question: the same environment as every command's
	}
	c.Targets = slices.Clone(targets)
	// The config's order, the sandbox last: a number always chooses the
	// same environment (the console puts the chosen one first).
	order := append(cfg.Names(), config.SandboxEnv)
	slices.SortStableFunc(c.Targets, func(x, y target.Target) int {
		return slices.Index(order, x.Env.Name) - slices.Index(order, y.Env.Name)
	})
	var secret plain.SecretReader
	if in, ok := env.Stdin.(*os.File); ok {
		secret = plain.TerminalSecret(in)
	}
	err = c.Run(ctx, env.Stdin, env.Stdout, secret)
	running.Close(quitWait)
	switch {
	case errors.Is(err, plain.ErrInterrupted):
		// Said by plain mode, with what was signed or sent: the status is left.
		return exitStatus(interruptExit(ctx))
	case errors.Is(err, plain.ErrNoTerminal):
		return exitStatus(exitUsage) // said by plain mode, with the command to run instead
	case err != nil:
		return failure(exitFailed, "%w", err)
	}
	return nil
}
