//go:build aix || darwin || dragonfly || freebsd || linux || netbsd || openbsd || solaris || zos

package plain

import (
	"context"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/sys/unix"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// discardInput discards what the terminal f holds typed or pasted and not
// yet read, and reports whether it held any: read first (takeInput), then
// its settings set again as they are. Only when it held some is the rest
// flushed (tcsetattr's TCSAFLUSH), its caller saying so: a flush after an
// empty read would drop, unsaid, keys that came just after it.
func discardInput(f *os.File) (bool, error) { return discardTaken(f, takeInput) }

// discardTaken is discardInput, what f holds read by take.
func discardTaken(f *os.File, take func(*os.File) ([]byte, error)) (bool, error) {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return false, err
	}
	held, err := take(f)
	if len(held) == 0 || err != nil {
		return len(held) > 0, err
	}
	return true, unix.IoctlSetTermios(fd, setTermiosFlush, t)
}

// takeOf reads and gives what the terminal f holds unread (Gate.take).
// Nothing is flushed: a flush while a paste's writer waits for room can
// leave it waiting, its rest never read nor dropped.
func takeOf(f *os.File) func() ([]byte, error) {
	return func() ([]byte, error) { return takeInput(f) }
}

// takeInput reads what the terminal f holds unread, up to maxLine bytes,
// without waiting and out of canonical mode, so a line typed without its
// Enter counts too; then sets its settings again as they are.
func takeInput(f *os.File) ([]byte, error) {
	fd := int(f.Fd())
	t, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return nil, err
	}
	var held []byte
	peek := *t
	peek.Lflag &^= unix.ICANON | unix.ECHO
	peek.Cc[unix.VMIN], peek.Cc[unix.VTIME] = 0, 0
	if unix.IoctlSetTermios(fd, setTermios, &peek) == nil {
		// Bounded, so a stream that never pauses cannot hold the question.
		var b [256]byte
		for range maxLine / len(b) {
			n, _ := unix.Read(fd, b[:])
			if n <= 0 {
				break
			}
			held = append(held, b[:n]...)
		}
	}
	return held, unix.IoctlSetTermios(fd, setTermios, t)
}

// hushOf turns the terminal f's echo off, its other settings as they
// are, until the func it returns sets them back as they were (Gate.Hush).
// A ctrl+\ meanwhile, between questions or at a key read inside (which
// finds the hushed settings), gives the terminal back as hush found it. A
// stop and continue (ctrl+z, then fg) gives it back with the shell's
// settings, echo on: the hush sets its own again at SIGCONT, unless a key
// read or a hidden read inside sets its mode (ownMode).
func hushOf(f *os.File) func() (func(), error) {
	return func() (func(), error) {
		fd := int(f.Fd())
		was, err := unix.IoctlGetTermios(fd, getTermios)
		if err != nil {
			return nil, err
		}
		hushed := *was
		hushed.Lflag &^= unix.ECHO
		quit, resumed := make(chan os.Signal, 1), make(chan os.Signal, 1)
		stop, stopped := make(chan struct{}), make(chan struct{})
		signal.Notify(quit, syscall.SIGQUIT)
		signal.Notify(resumed, syscall.SIGCONT)
		unhushed.Store(was)
		if err := unix.IoctlSetTermios(fd, setTermios, &hushed); err != nil {
			signal.Stop(quit)
			signal.Stop(resumed)
			unhushed.Store(nil)
			return nil, err
		}
		go func() {
			defer close(stopped)
			for {
				select {
				case <-quit:
					quitAsAlways(f, was, quit)
				case <-resumed:
					modes.Lock()
					if modes.owners == 0 {
						_ = unix.IoctlSetTermios(fd, setTermios, &hushed)
					}
					modes.Unlock()
				case <-stop:
					return
				}
			}
		}()
		return func() {
			signal.Stop(quit)
			signal.Stop(resumed)
			close(stop)
			<-stopped
			unhushed.Store(nil)
			_ = unix.IoctlSetTermios(fd, setTermios, was)
		}, nil
	}
}

// modes counts the reads that set the terminal's mode, and set it again
// at SIGCONT, themselves (key mode, a hidden line): the hush leaves it to
// them. Its lock orders their setting with the hush's at SIGCONT.
var modes struct {
	sync.Mutex
	owners int
}

// ownMode runs set, which sets a read's mode, as one of modes' owners.
func ownMode(set func() error) error {
	modes.Lock()
	defer modes.Unlock()
	err := set()
	if err == nil {
		modes.owners++
	}
	return err
}

// putBack ends a read's hold of the mode, the terminal set back to was:
// echo still off while a hush holds it, so a read that began after a
// continue, in the shell's settings, does not end the hush.
func putBack(fd int, was *unix.Termios) error {
	modes.Lock()
	defer modes.Unlock()
	modes.owners--
	if unhushed.Load() != nil {
		hushed := *was
		hushed.Lflag &^= unix.ECHO
		was = &hushed
	}
	return unix.IoctlSetTermios(fd, setTermios, was)
}

// unhushed is the terminal's settings while hushOf holds its echo off:
// what a quit gives back (quitAsAlways) in place of the hushed ones.
var unhushed atomic.Pointer[unix.Termios]

// readHidden reads a line of the terminal f with echo off, and puts f back
// as it was once the line is read or ctx ends. A stop and continue (ctrl+z,
// then fg) gives the terminal back with the shell's settings, echo on:
// echo goes off again at SIGCONT, before the next key is typed.
func readHidden(ctx context.Context, f *os.File, g Gate, prompt func()) (string, error) {
	fd := int(f.Fd())
	was, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return "", err
	}
	hidden := *was
	hidden.Lflag &^= unix.ECHO
	hidden.Lflag |= unix.ICANON | unix.ISIG
	hidden.Iflag |= unix.ICRNL
	resumed, quit := make(chan os.Signal, 1), make(chan os.Signal, 1)
	signal.Notify(resumed, syscall.SIGCONT)
	signal.Notify(quit, syscall.SIGQUIT)
	defer signal.Stop(resumed)
	defer signal.Stop(quit)
	if err := ownMode(func() error { return unix.IoctlSetTermios(fd, setTermios, &hidden) }); err != nil {
		return "", err
	}
	defer putBack(fd, was)
	pastesMarked(f, true)
	defer pastesMarked(f, false)
	prompt()
	done := make(chan lineRead, 1)
	go func() {
		line, err := ReadLine(f)
		done <- lineRead{line, err}
	}()
	for {
		select {
		case <-resumed:
			_ = unix.IoctlSetTermios(fd, setTermios, &hidden)
			pastesMarked(f, true) // a shell's line editor turns the mode off
		case <-quit:
			quitAsAlways(f, was, quit)
		case r := <-done:
			secret, open := secretLine(r.line)
			// Followed with echo off, so none of the rest shows.
			if r.err == nil && g.PastedMore(ctx, open) {
				return "", ErrPastedLines
			}
			return secret, r.err
		case <-ctx.Done():
			return "", ErrInterrupted
		}
	}
}

// marksWanted reports whether the terminal may be asked to mark pastes: a
// dumb terminal (TERM=dumb, or none named) would show the request as text.
func marksWanted() bool {
	t := os.Getenv("TERM")
	return t != "" && t != "dumb"
}

// secretLine is a secret's line without its paste's marks; open: a paste
// began in it and did not end, so more of it comes after the line.
func secretLine(line string) (secret string, open bool) {
	var m pasteMarks
	keys, _ := m.take([]byte(line))
	return string(keys), m.open
}

// pastesMarked asks the terminal f to mark pastes (pastemarks.go), or to
// stop, where it may be asked.
func pastesMarked(f *os.File, on bool) {
	switch {
	case !marksWanted():
	case on:
		_, _ = f.WriteString(ansi.SetModeBracketedPaste)
	default:
		_, _ = f.WriteString(ansi.ResetModeBracketedPaste)
	}
}

// quitAsAlways quits as ctrl+\ does in this process, the terminal f
// given back as it was first (its settings was, pastes no longer marked):
// the default action would leave it in the mode svcwallet set for the
// shell. The quit is raised again with quit, the read's own catch, let go:
// the command's (its context ends, as at ctrl+c) or, none, the default.
func quitAsAlways(f *os.File, was *unix.Termios, quit chan os.Signal) {
	if u := unhushed.Load(); u != nil {
		was = u
	}
	pastesMarked(f, false)
	_ = unix.IoctlSetTermios(int(f.Fd()), setTermios, was)
	signal.Stop(quit)
	_ = syscall.Kill(os.Getpid(), syscall.SIGQUIT)
}

// keysOf reads the terminal f a key at a time for one answer (Gate.Keys).
func keysOf(f *os.File) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return readKeys(f) }
}

// keyMode is the terminal f read a key at a time: canonical mode and echo
// off (the gate echoes, so erase works), signals on (ctrl+c still
// interrupts), each read returning as soon as one byte has come.
type keyMode struct {
	*os.File
	was        *unix.Termios
	resumed    chan os.Signal
	continued  chan struct{} // told once key mode is set again at SIGCONT
	continuing sync.Mutex    // held while a stop or a continue is marked and told
	jobStopped chan struct{} // told as a caught SIGTSTP stops the job
	held       bool          // stopped and not yet continued: every key read is dropped
	stopAsked  chan os.Signal
	stopJob    func()
	quit       chan os.Signal
	stop       chan struct{}
	stopped    chan struct{}
}

// Continued tells each continue after a stop, once key mode is set again:
// the gate asks its question again (Gate.typed).
func (k *keyMode) Continued() <-chan struct{} { return k.continued }

// Stopped tells each stop caught before it stops the job: the gate drops
// what was typed and every key until Continued.
func (k *keyMode) Stopped() <-chan struct{} { return k.jobStopped }

// Read reads keys, and drops those read in the settings a shell gave the
// terminal back with (fg's Enter typed ahead): a continue is told on
// Continued only once Go's signal handling passed it on, which a read at
// fg beats (the y typed before the stop and an Enter typed ahead with fg
// answered unseen). A continue being told is waited for, so the gate sees
// it before the keys read.
func (k *keyMode) Read(b []byte) (int, error) {
	n, err := k.File.Read(b)
	if err != nil {
		return n, err
	}
	k.continuing.Lock()
	t, terr := unix.IoctlGetTermios(int(k.Fd()), getTermios)
	held := k.held
	k.continuing.Unlock()
	// Held: read between the stop and the continue's handling, in key
	// mode still where a shell (zsh) gave the terminal back as it was.
	if held || terr == nil && t.Lflag&unix.ICANON != 0 {
		return 0, nil
	}
	return n, nil
}

// readKeys puts f in key mode until Close puts it back as it was. What f
// holds unread is read as keys, never flushed here: the question before a
// secret takes it as its answer; one that signs discards it once key mode
// is set (Gate.answer), so no key typed before it shows is read. A stop and continue (ctrl+z, then fg)
// gives the terminal back with the shell's settings: key mode is set again
// at SIGCONT. Where a shell would continue svcwallet (osguard.JobControl),
// a stop is caught and marked (Stopped) before the job stops, so no key
// read before the continue is handled answers.
func readKeys(f *os.File) (io.ReadCloser, error) {
	fd := int(f.Fd())
	was, err := unix.IoctlGetTermios(fd, getTermios)
	if err != nil {
		return nil, err
	}
	keys := *was
	keys.Lflag &^= unix.ICANON | unix.ECHO | unix.ECHONL
	keys.Lflag |= unix.ISIG
	keys.Cc[unix.VMIN], keys.Cc[unix.VTIME] = 1, 0
	k := &keyMode{File: f, was: was, resumed: make(chan os.Signal, 1), continued: make(chan struct{}, 1),
		quit: make(chan os.Signal, 1), stop: make(chan struct{}), stopped: make(chan struct{}),
		jobStopped: make(chan struct{}, 1)}
	signal.Notify(k.resumed, syscall.SIGCONT)
	signal.Notify(k.quit, syscall.SIGQUIT)
	k.stopJob, k.stopAsked = osguard.JobControl()
	if err := ownMode(func() error { return unix.IoctlSetTermios(fd, setTermios, &keys) }); err != nil {
		k.stopSignals()
		return nil, err
	}
	pastesMarked(f, true)
	go func() {
		defer close(k.stopped)
		for {
			select {
			case <-k.resumed:
				k.continuing.Lock()
				_ = unix.IoctlSetTermios(fd, setTermios, &keys)
				pastesMarked(f, true) // a shell's line editor turns the mode off
				k.held = false
				select {
				case k.continued <- struct{}{}:
				default:
				}
				k.continuing.Unlock()
			case <-k.stopAsked:
				k.continuing.Lock()
				k.held = true
				select {
				case k.jobStopped <- struct{}{}:
				default:
				}
				k.continuing.Unlock()
				pastesMarked(f, false) // the shell's, until continued
				k.stopJob()            // returns once continued
			case <-k.quit:
				quitAsAlways(f, was, k.quit)
			case <-k.stop:
				return
			}
		}
	}()
	return k, nil
}

// Close puts the terminal back as it was; f itself stays open.
func (k *keyMode) Close() error {
	pastesMarked(k.File, false)
	k.stopSignals()
	close(k.stop)
	<-k.stopped
	return putBack(int(k.Fd()), k.was)
}

// stopSignals ends the signals key mode catches; a SIGTSTP then stops
// svcwallet as it did before.
func (k *keyMode) stopSignals() {
	signal.Stop(k.resumed)
	signal.Stop(k.quit)
	if k.stopAsked != nil {
		signal.Stop(k.stopAsked)
	}
}
