//go:build e2e && unix

package cli

import (
	"bytes"
	"cmp"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
)

// A terminal that never answers a query (the Linux console, script, a
// serial line, some editors' terminals) is a pseudo-terminal here whose
// other end only reads.

// releaseStamp is what the test binary is stamped with at link time, as
// goreleaser's default ldflags stamp a release.
const releaseStamp = `-X main.version=1.2.3 -X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.date=2026-11-23T08:00:00Z`

// terminalQueries are the sequences that ask a terminal for an answer:
// colours (OSC 10, 11, 12), the cursor position and status (DSR), the
// device attributes (DA), the terminal's version (XTVERSION), the keyboard
// protocol, a termcap (XTGETTCAP) and a mode (DECRQM).
var terminalQueries = regexp.MustCompile(`\x1b\]1[012];\?|\x1b\[[56]n|\x1b\[[>=]?0?c|\x1b\[>0?q|\x1b\[\?u|\x1bP\+q|\x1b\[\??[0-9]+\$p`)

// buildStamped builds svcwallet once into dir, stamped as a release.
func buildStamped(tb testing.TB, dir string) string {
	tb.Helper()
	bin := filepath.Join(dir, "svcwallet")
	if out, err := exec.Command("go", "build", "-ldflags", releaseStamp, "-o", bin, "../..").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// silentEnv is a clean environment: an empty home, a colour terminal.
func silentEnv(dir string, extra ...string) []string {
	home := filepath.Join(dir, "home")
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + dir, "TERM=xterm-256color",
		"XDG_CONFIG_HOME=" + home + "/.config", "XDG_STATE_HOME=" + home + "/.state", "XDG_DATA_HOME=" + home + "/.data",
		"XDG_CACHE_HOME=" + home + "/.cache"}, extra...)
}

// silentTerminal is a process whose standard streams are a 120x40
// pseudo-terminal that never answers: what the process writes is kept,
// nothing is written back unless the test types it.
type silentTerminal struct {
	tb      testing.TB
	cmd     *exec.Cmd
	ptmx    *os.File
	started time.Time
	mu      sync.Mutex
	out     bytes.Buffer
	read    chan struct{} // closed when the terminal's other end is closed
	done    chan struct{} // closed when the process has ended
	took    time.Duration
	ptyStart
	shown time.Duration // when watch was first on the screen, after the start
}

func startSilent(tb testing.TB, bin string, env []string, args ...string) *silentTerminal {
	tb.Helper()
	return ptyStart{}.start(tb, bin, env, args...)
}

// ptyStart is how a process starts on its pseudo-terminal: what was typed
// before it started (it waits in the terminal's input), and a file its
// stderr goes to instead of the terminal.
type ptyStart struct {
	typedAhead string
	stderr     *os.File
	// answers is a terminal that answers the background colour query
	// (OSC 11) with black, as most do; watch, text whose first appearance
	// on the screen is timed (shown).
	answers bool
	watch   string
	// cols is the terminal's width; 0 is 120.
	cols uint16
}

func (o ptyStart) start(tb testing.TB, bin string, env []string, args ...string) *silentTerminal {
	tb.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		tb.Fatalf("open a pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: cmp.Or(o.cols, 120)}); err != nil {
		tb.Fatal(err)
	}
	if _, err := ptmx.Write([]byte(o.typedAhead)); err != nil {
		tb.Fatal(err)
	}
	s := &silentTerminal{tb: tb, ptmx: ptmx, read: make(chan struct{}), done: make(chan struct{}), ptyStart: o}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Env = env
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = tty, tty, tty
	if o.stderr != nil {
		s.cmd.Stderr = o.stderr
	}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	s.started = time.Now()
	err = s.cmd.Start()
	tty.Close() // the child holds it now
	if err != nil {
		ptmx.Close()
		tb.Fatal(err)
	}
	go func() {
		buf := make([]byte, 4096)
		asked := false
		for {
			n, err := ptmx.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			if o.watch != "" && s.shown == 0 && strings.Contains(ansi.Strip(s.out.String()), o.watch) {
				s.shown = time.Since(s.started)
			}
			if o.answers && !asked && strings.Contains(s.out.String(), "\x1b]11;?") {
				asked = true
				_, _ = ptmx.Write([]byte("\x1b]11;rgb:0000/0000/0000\x1b\\"))
			}
			s.mu.Unlock()
			if err != nil { // EIO once the child's side is closed
				close(s.read)
				return
			}
		}
	}()
	go func() {
		_ = s.cmd.Wait()
		s.took = time.Since(s.started)
		close(s.done)
	}()
	tb.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		<-s.done
		ptmx.Close()
	})
	return s
}

func (s *silentTerminal) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// wait is the exit status once the process has ended and everything it
// wrote has been read; a process still running after deadline fails the
// test (a guard against a stall, not a measure of speed).
func (s *silentTerminal) wait(deadline time.Duration) int {
	s.tb.Helper()
	select {
	case <-s.done:
	case <-time.After(deadline):
		s.tb.Fatalf("still running after %v; it wrote %q", deadline, s.output())
	}
	select {
	case <-s.read:
	case <-time.After(deadline):
		s.tb.Fatalf("the terminal stayed open after the process ended")
	}
	return s.cmd.ProcessState.ExitCode()
}

// waitShows waits until the screen (escape sequences dropped) shows text.
func (s *silentTerminal) waitShows(text string, deadline time.Duration) {
	s.tb.Helper()
	s.waitWrites(text, func(out string) bool { return strings.Contains(ansi.Strip(out), text) }, deadline)
}

// waitWrites waits until what the process wrote is what has says (what).
func (s *silentTerminal) waitWrites(what string, has func(out string) bool, deadline time.Duration) {
	s.tb.Helper()
	end := time.Now().Add(deadline)
	for !has(s.output()) {
		select {
		case <-s.done:
			s.tb.Fatalf("ended before writing %q; it wrote %q", what, s.output())
		default:
		}
		if time.Now().After(end) {
			s.tb.Fatalf("%q not written after %v; it wrote %q", what, deadline, s.output())
		}
		time.Sleep(10 * time.Millisecond) // polling interval, not ordering
	}
}

// TestSilentTerminal: on a terminal that never answers, help, usage errors,
// version, completion and man ask it nothing and end at once (the deadline
// is a guard: BenchmarkSilentTerminal measures); help is styled there. The
// console asks for the background colour and draws its first frame all
// the same.
func TestSilentTerminal(t *testing.T) {
	dir := t.TempDir()
	bin := buildStamped(t, dir)
	for _, tc := range []struct {
		args  []string
		extra []string
		exit  int
		shows []string
	}{
		{args: []string{"--help"}, shows: []string{"\x1b[1mUSAGE\x1b[m", "\x1b[36mwithdraw\x1b[m"}},
		{args: []string{"help", "withdraw"}, shows: []string{"\x1b[1mEXAMPLES\x1b[m", "svcwallet withdraw [flags]"}},
		{args: []string{"withdraw", "--help"}, extra: []string{"NO_COLOR=1"}, shows: []string{"\x1b[1mFLAGS\x1b[m", "  --chain string"}},
		{args: []string{"withdraw", "--bogus"}, exit: exitUsage,
			shows: []string{"svcwallet withdraw: unknown flag: --bogus\r\nrun 'svcwallet withdraw --help' for usage\r\n"}},
		{args: []string{"withdraw", "--bogus", "--json"}, exit: exitUsage, shows: []string{`"code":"usage"`}},
		{args: []string{"bogus"}, exit: exitUsage, shows: []string{"run 'svcwallet --help' for usage"}},
		{args: []string{"version"}, shows: []string{"svcwallet v1.2.3 (revision 0123456789ab, 2026-11-23T08:00:00Z), go1."}},
		{args: []string{"--version"}, shows: []string{"svcwallet v1.2.3 (revision 0123456789ab, 2026-11-23T08:00:00Z), go1."}},
		{args: []string{"completion", "bash"}, shows: []string{"# bash completion V2 for svcwallet"}},
		{args: []string{"man"}, shows: []string{".TH SVCWALLET 1"}},
	} {
		t.Run(strings.Join(append(tc.args, tc.extra...), " "), func(t *testing.T) {
			s := startSilent(t, bin, silentEnv(dir, tc.extra...), tc.args...)
			code := s.wait(5 * time.Second)
			out := s.output()
			if code != tc.exit {
				t.Errorf("exit %d, want %d; it wrote %q", code, tc.exit, out)
			}
			if q := terminalQueries.FindString(out); q != "" {
				t.Errorf("it asked the terminal %q", q)
			}
			for _, want := range tc.shows {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in %q", want, out)
				}
			}
			if len(tc.extra) > 0 && strings.Contains(out, "\x1b[36m") {
				t.Errorf("NO_COLOR, yet coloured: %q", out)
			}
			t.Logf("%v", s.took)
		})
	}

	t.Run("console", func(t *testing.T) {
		s := startSilent(t, bin, silentEnv(dir))
		s.waitShows("Sandbox demo", 10*time.Second)
		t.Logf("first frame after %v", time.Since(s.started))
		// The console draws its first frame itself, before Bubble Tea runs
		// the model (whose first command asks the background colour).
		s.waitWrites("the background colour query", func(out string) bool { return strings.Contains(out, "\x1b]11;?") }, 10*time.Second)
		if out := s.output(); strings.Index(out, "\x1b]11;?") < strings.Index(out, "Sandbox demo") {
			t.Errorf("the first frame waited for Bubble Tea: %q", out)
		}
		if _, err := s.ptmx.Write([]byte{3}); err != nil { // ctrl+c
			t.Fatal(err)
		}
		if code := s.wait(10 * time.Second); code != 0 {
			t.Errorf("exit %d after ctrl+c", code)
		}
		leftAltScreen(t, s.output())
	})

	// Ended as soon as its first frame shows, before Bubble Tea's first
	// tick and maybe before Bubble Tea catches signals, the console ends
	// (128 + the signal), leaves the alternate screen its first frame
	// entered and says only what ended it (consoleEndedBy).
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run("console ended at once by "+sig.String(), func(t *testing.T) {
			s := startSilent(t, bin, silentEnv(dir))
			s.waitShows("Sandbox demo", 10*time.Second)
			_ = s.cmd.Process.Signal(sig)
			if code := s.wait(10 * time.Second); code != 128+int(sig) {
				t.Errorf("exit %d after %v; it wrote %q", code, sig, s.output())
			}
			out := ansi.Strip(s.output())
			if said := strings.Count(out, "svcwallet:"); said != 1 || !strings.Contains(out, consoleEndedBy(signalCause(sig))) {
				t.Errorf("it said more than the signal, or not what ended it: %q", out)
			}
			leftAltScreen(t, s.output())
		})
	}

	// Once started, the console runs on one processor (consoleProcs)
	// unless $GOMAXPROCS says how many: the runtime's scheduler trace,
	// written to stderr every 50 ms, says.
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{want: "gomaxprocs=1 "},
		{extra: []string{"GOMAXPROCS=2"}, want: "gomaxprocs=2 "},
	} {
		t.Run("console processors "+strings.Join(tc.extra, " "), func(t *testing.T) {
			trace, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
			if err != nil {
				t.Fatal(err)
			}
			defer trace.Close()
			s := ptyStart{stderr: trace}.start(t, bin, silentEnv(dir, append(tc.extra, "GODEBUG=schedtrace=50")...))
			s.waitShows("Sandbox demo", 10*time.Second)
			traces := func() []string {
				b, _ := os.ReadFile(trace.Name())
				return regexp.MustCompile(`SCHED \d+ms: gomaxprocs=\d+ `).FindAllString(string(b), -1)
			}
			shown := len(traces())
			// Five traces after the first frame: the width table built, the
			// console has settled on its processors.
			for end := time.Now().Add(10 * time.Second); len(traces()) < shown+5; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("no scheduler trace after the first frame: %q", traces())
				}
			}
			if got := traces(); !strings.HasSuffix(got[len(got)-1], tc.want) {
				t.Errorf("the console runs on %q, want %q (traces %q)", got[len(got)-1], tc.want, got)
			}
			if _, err := s.ptmx.Write([]byte{3}); err != nil { // ctrl+c
				t.Fatal(err)
			}
			s.wait(10 * time.Second)
		})
	}
}

// BenchmarkFirstFrame: the console's first frame (on the embedded
// sandbox, its login screen) against a bare Bubble Tea program's
// (testdata/bareframe), from start to the frame on the screen, each
// iteration timing both, on a terminal that never answers and on one that
// answers the background colour query; ratio is the console's time over
// the bare program's (the goal: at most 1.2).
func BenchmarkFirstFrame(b *testing.B) {
	dir := b.TempDir()
	bin := buildStamped(b, dir)
	bare := filepath.Join(dir, "bareframe")
	if out, err := exec.Command("go", "build", "-o", bare, "./testdata/bareframe").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	frame := func(b *testing.B, bin, text string, answers bool) time.Duration {
		s := ptyStart{answers: answers, watch: text}.start(b, bin, silentEnv(dir))
		s.waitShows(text, 10*time.Second)
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		s.wait(10 * time.Second)
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.shown
	}
	for _, answers := range []bool{false, true} {
		b.Run(map[bool]string{false: "silent", true: "answering"}[answers], func(b *testing.B) {
			var console, plain time.Duration
			for b.Loop() {
				console += frame(b, bin, "Sandbox demo", answers)
				plain += frame(b, bare, "Bare first frame", answers)
			}
			b.ReportMetric(float64(console.Microseconds())/1000/float64(b.N), "console-ms")
			b.ReportMetric(float64(plain.Microseconds())/1000/float64(b.N), "bare-ms")
			b.ReportMetric(float64(console)/float64(plain), "ratio")
		})
	}
}

// BenchmarkSilentTerminal measures commands on a terminal that never
// answers, from start to exit: the bar is 0.3 s for --help and usage
// errors.
func BenchmarkSilentTerminal(b *testing.B) {
	dir := b.TempDir()
	bin := buildStamped(b, dir)
	for _, args := range [][]string{{"--help"}, {"withdraw", "--bogus"}, {"version"}} {
		b.Run(strings.Join(args, "_"), func(b *testing.B) {
			for b.Loop() {
				s := startSilent(b, bin, silentEnv(dir), args...)
				s.wait(5 * time.Second)
			}
		})
	}
	b.Run("console_first_frame", func(b *testing.B) {
		for b.Loop() {
			s := startSilent(b, bin, silentEnv(dir))
			s.waitShows("Sandbox demo", 10*time.Second)
			_ = s.cmd.Process.Signal(syscall.SIGTERM)
			if code := s.wait(10 * time.Second); code != 128+int(syscall.SIGTERM) {
				b.Fatalf("exit %d", code)
			}
		}
	})
}

// leftAltScreen fails unless the last alternate-screen switch in out
// leaves it, with the cursor shown after it.
func leftAltScreen(t *testing.T, out string) {
	t.Helper()
	on, off := strings.LastIndex(out, ansi.SetModeAltScreenSaveCursor), strings.LastIndex(out, ansi.ResetModeAltScreenSaveCursor)
	if on < 0 || off < on || !strings.Contains(out[on:], ansi.ShowCursor) {
		t.Errorf("the terminal was not given back (alternate screen left, cursor shown): %q", out)
	}
}
