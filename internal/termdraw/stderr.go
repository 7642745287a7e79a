package termdraw

import (
	"bytes"
	"io"
	"os"
)

// held is standard error while the drawer owns the terminal: what is
// written to os.Stderr then (Bubble Tea writes a caught panic's trace there)
// would land on the alternate screen and be wiped with it, so it is kept and
// written once the terminal is given back.
type held struct {
	was  *os.File
	pipe *os.File
	to   io.Writer
	kept bytes.Buffer
	read chan struct{}
}

// holdStderr points os.Stderr at a pipe until Close, which writes what came
// through it to to.
func (d *Drawer) holdStderr(to io.Writer) error {
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	h := &held{was: os.Stderr, pipe: w, to: to, read: make(chan struct{})}
	go func() {
		defer close(h.read)
		_, _ = io.Copy(&h.kept, r)
		r.Close()
	}()
	os.Stderr = w
	d.held = h
	return nil
}

// release gives os.Stderr back and writes what was held.
func (h *held) release() {
	os.Stderr = h.was
	h.pipe.Close()
	<-h.read
	_, _ = h.to.Write(h.kept.Bytes())
}
