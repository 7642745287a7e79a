package osguard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// CommandContext is exec.CommandContext with ChildEnv as the child's
// environment: the child is killed when ctx ends. Every process svcwallet
// starts (tmux, the browser opener, a signing command, a notify command)
// is made here, alone or through GroupCommandContext, so a new one cannot
// forget (TestOnlyCommandStartsChildren).
func CommandContext(ctx context.Context, name string, arg ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, name, arg...)
	c.Env = ChildEnv()
	return c
}

// GroupCmd is a child that ends whole (GroupCommandContext): when its
// context ends, what it started ends with it. Start, Run and Wait it
// through GroupCmd, not through Cmd, whose own would skip the system's
// half: on Windows the job object it joins once started.
type GroupCmd struct {
	Cmd *exec.Cmd
	// adopt puts the started child in its group (Windows); nil where the
	// group is made as it starts (unix).
	adopt func(*os.Process) error
	// ended runs once the child has ended: the terminal taken back, the
	// job object closed.
	ended []func()
	// whole: what the child started ends when it does (EndWhole).
	whole bool
}

// EndWhole makes what the child started end when the child ends, not only
// when its context does: a signing command's wrapper ended by ctrl+c or
// ctrl+\ (its group has the terminal) left the signer it ran in the
// background, which ignores both, waiting for a device's yes. On Windows
// the job object does so already; on Linux waitid and on macOS and the
// BSDs kqueue tell the leader's end without reaping it; elsewhere it is
// not done.
func (g *GroupCmd) EndWhole() { g.whole = true }

// Start starts the child in its group. A child that cannot join its group
// is killed: it would outlive its context's end.
func (g *GroupCmd) Start() error {
	if err := g.Cmd.Start(); err != nil {
		g.end()
		return err
	}
	if g.adopt != nil {
		if err := g.adopt(g.Cmd.Process); err != nil {
			_ = g.Cmd.Process.Kill()
			_ = g.Cmd.Wait()
			g.end()
			return err
		}
	}
	return nil
}

// Wait waits for the child as exec.Cmd.Wait does, then undoes what its
// start lent it.
func (g *GroupCmd) Wait() error {
	defer g.end()
	if g.whole && g.Cmd.Process != nil {
		endWithLeader(g.Cmd.Process.Pid)
	}
	return g.Cmd.Wait()
}

// Run starts the child and waits for it.
func (g *GroupCmd) Run() error {
	if err := g.Start(); err != nil {
		return err
	}
	return g.Wait()
}

// RunPipesWithin runs the child as Run does, its output waited for at most
// pipesWait once it has ended or been ended: a program it left running (an
// agent, a sound played) may hold its pipes for as long as it runs. A child
// that ended well, leaving one so, has ended well.
func (g *GroupCmd) RunPipesWithin(pipesWait time.Duration) error {
	g.Cmd.WaitDelay = pipesWait
	if err := g.Run(); !errors.Is(err, exec.ErrWaitDelay) {
		return err
	}
	return nil
}

func (g *GroupCmd) end() {
	for _, f := range g.ended {
		f()
	}
	g.ended = nil
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

// CappedBuffer keeps the first Max bytes a child writes to it and takes
// the rest unkept: a child flooding its output costs no more memory.
type CappedBuffer struct {
	Max int
	b   bytes.Buffer
}

func (c *CappedBuffer) Write(p []byte) (int, error) {
	if room := c.Max - c.b.Len(); room > 0 {
		c.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *CappedBuffer) String() string { return c.b.String() }

// Said is the start of what the child wrote as a failure repeats it:
// cleaned to one line (safetext.Line, no escape sequence reaching the
// terminal), its first maxOutputSaid bytes.
func (c *CappedBuffer) Said() string { return safetext.Line(c.b.String(), maxOutputSaid) }

// maxOutputSaid bounds what of a child's output a failure repeats.
const maxOutputSaid = 200

// QuickWait bounds a child asked one quick question (tmux's options): a
// server that never answers must not hold doctor, or a copy's word, for ever.
const QuickWait = 2 * time.Second

// MaxQuickOutput is the most of a quick question's answer kept.
const MaxQuickOutput = 4 << 10

// QuickOutput runs name as Command does and gives the first kept bytes of
// its standard output (MaxQuickOutput for a short answer); one not done
// within wait is ended with what it started (GroupCommandContext), and its
// error says so.
func QuickOutput(wait time.Duration, kept int, name string, arg ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	g := GroupCommandContext(ctx, name, arg...)
	out := CappedBuffer{Max: kept}
	g.Cmd.Stdout = &out
	err := g.RunPipesWithin(wait)
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s did not answer within %s", name, wait)
	}
	return out.String(), err
}

// TmuxGlobalOption asks the tmux server this process runs in for a global
// option (QuickOutput: a server that never answers is given up after
// wait), its value trimmed: the console's copy and doctor ask it one way.
func TmuxGlobalOption(wait time.Duration, name string) (string, error) {
	out, err := QuickOutput(wait, MaxQuickOutput, "tmux", "show-options", "-gv", name)
	return strings.TrimSpace(out), err
}
