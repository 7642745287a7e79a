package termdraw

import (
	"io"
	"log"
	"os"
)

// keptMax bounds what is held of standard error: its last bytes are kept,
// where a panic's trace is.
const keptMax = 1 << 20

// held is standard error while the drawer owns the terminal: what is
// written to os.Stderr or through the log package then (Bubble Tea writes a
// caught panic's trace there, net/http its server's errors) would land on
// the alternate screen and be wiped with it, so it is kept and written once
// the terminal is given back.
type held struct {
	was  *os.File
	pipe *os.File
	to   io.Writer
	kept tail
	read chan struct{}
}

// holdStderr points os.Stderr and the log package's output at a pipe until
// Close, which writes what came through it to to.
func (d *Drawer) holdStderr(to io.Writer) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	h := &held{was: os.Stderr, pipe: w, to: to, kept: tail{max: keptMax}, read: make(chan struct{})}
	go func() {
		defer close(h.read)
		_, _ = io.Copy(&h.kept, r)
		r.Close()
	}()
	os.Stderr = w
	log.SetOutput(w)
	d.held = h
	return nil
}

// release gives os.Stderr and the log package's output back and writes
// what was held.
func (h *held) release() {
	os.Stderr = h.was
	log.SetOutput(h.was)
	h.pipe.Close()
	<-h.read
	if h.kept.dropped {
		_, _ = io.WriteString(h.to, "svcwallet: standard error held while the console ran; its earlier lines dropped\n")
	}
	_, _ = h.to.Write(h.kept.b)
}

// tail keeps the last max bytes written to it.
type tail struct {
	b       []byte
	max     int
	dropped bool
}

func (t *tail) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b, t.dropped = append(t.b[:0], t.b[over:]...), true
	}
	return len(p), nil
}
