package kit

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/svcwallet/svcwallet/signer"
)

// Sends are the review screens' sign-and-send commands still out: the
// console's end waits for them within its bound (Deps.Ended), as Bubble
// Tea does not, and says each still out then as far as it got: a
// signature awaited sends nothing, one made may have left. Nil keeps none.
type Sends struct {
	mu      sync.Mutex
	out     map[*Sending]bool
	cut     []*Sending    // ended by their Cut once signed: still said
	changed chan struct{} // a send ended; made with the first
}

// Sending is one send: what it is (What: "the withdrawal of quote q-1"),
// what to do when it may have left (Check), and how far it got. Cut, when
// set, is the context whose end cancels its request (the console's): a
// send it cut once signed ends unanswered, so it is said as one still out.
type Sending struct {
	What, Check string
	Cut         context.Context
	mu          sync.Mutex
	awaiting    string // what its signature waits for (signer.Awaiting)
	signed      bool   // its signature came: the request may leave
	unsent      bool   // the end said nothing was sent: a signature is refused
}

// Sent runs send counted as s until it returns.
func (ss *Sends) Sent(s *Sending, send func()) {
	if ss == nil {
		send()
		return
	}
	ss.mu.Lock()
	if ss.out == nil {
		ss.out, ss.changed = map[*Sending]bool{}, make(chan struct{}, 1)
	}
	ss.out[s] = true
	ss.mu.Unlock()
	defer func() {
		ss.mu.Lock()
		delete(ss.out, s)
		if s.cutOnceSigned() {
			ss.cut = append(ss.cut, s)
		}
		ss.mu.Unlock()
		select {
		case ss.changed <- struct{}{}:
		default:
		}
	}()
	send()
}

// wait waits until no send is out or until stop, and says those still
// out then (LeftError), one each.
func (ss *Sends) wait(stop <-chan struct{}) error {
	if ss == nil {
		return nil
	}
	for {
		ss.mu.Lock()
		out, changed := len(ss.out), ss.changed
		ss.mu.Unlock()
		if out == 0 {
			return ss.left()
		}
		select {
		case <-changed:
		case <-stop:
			return ss.left()
		}
	}
}

// left says each send still out, under the lock Sent ends one with, so a
// send said is one that was out.
func (ss *Sends) left() error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	left := make([]error, 0, len(ss.out)+len(ss.cut))
	for s := range ss.out {
		left = append(left, s.left())
	}
	for _, s := range ss.cut {
		left = append(left, s.left())
	}
	return errors.Join(left...)
}

// left says what s left as the console ended: once signed, the request
// may have left unanswered; else nothing was sent, and a signature made
// later is refused (marked), so that stays true.
func (s *Sending) left() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.unsent = !s.signed
	switch {
	case s.signed:
		return &LeftError{Text: fmt.Sprintf("%s was signed, and the console ended before the service answered: it may or may not have been sent; %s", s.What, s.Check), Send: true, Signed: true}
	case s.awaiting != "":
		return &LeftError{Text: fmt.Sprintf("the console ended while %s waited for %s: nothing was sent, and a signature made now is never used; refuse it, or end it if it still runs", s.What, s.awaiting), Send: true}
	}
	return &LeftError{Text: fmt.Sprintf("the console ended before %s was signed: nothing was sent", s.What), Send: true}
}

// LeftError is a send still out when the console's end stopped waiting
// for it (Send), or a signing command: what it left and what to do.
// Signed: the send may have left with no answer, its outcome unknown.
type LeftError struct {
	Text         string
	Send, Signed bool
}

func (e *LeftError) Error() string { return e.Text }

// Signed is k, whose signature marks s signed once made.
func (s *Sending) Signed(k signer.Key) signer.Key {
	s.mu.Lock()
	s.awaiting = signer.Awaiting(k)
	s.mu.Unlock()
	if signer.Awaiting(k) == "" {
		return marked{k, s}
	}
	return markedAwaiting{marked{k, s}}
}

// AlreadySigned marks s signed: it sends a body signed before.
func (s *Sending) AlreadySigned() *Sending {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.signed = true
	return s
}

// marked is a key whose signature, once made, marks its send signed.
type marked struct {
	signer.Key
	s *Sending
}

func (k marked) SignTypedData(ctx context.Context, d signer.Domain, m signer.Message) ([65]byte, error) {
	if err := k.s.refused(); err != nil {
		return [65]byte{}, err
	}
	sig, err := k.Key.SignTypedData(ctx, d, m)
	k.s.mu.Lock()
	defer k.s.mu.Unlock()
	switch {
	case err != nil:
		return sig, err
	case k.s.unsent:
		// Came after the end said nothing was sent: dropped, so it stays so.
		return [65]byte{}, k.s.refusal()
	}
	k.s.signed = true
	return sig, nil
}

// cutOnceSigned is whether s ended as its Cut ended, once signed.
func (s *Sending) cutOnceSigned() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.signed && s.Cut != nil && s.Cut.Err() != nil
}

// refused is the refusal of a signature once the end said s sent nothing,
// else nil.
func (s *Sending) refused() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.unsent {
		return nil
	}
	return s.refusal()
}

// refusal is a signature refused as the end said nothing was sent: a wait
// cancelled, as the screens word it, or errEndedUnsigned. s.mu is held.
func (s *Sending) refusal() error {
	if s.awaiting != "" {
		return &signer.WaitError{Awaiting: s.awaiting, Cancelled: true}
	}
	return errEndedUnsigned
}

// errEndedUnsigned is a signature refused once the console's end said its
// send sent nothing.
var errEndedUnsigned = errors.New("the console ended before this was signed: nothing was sent")

// markedAwaiting is marked for a key that waits for a person or a program.
type markedAwaiting struct{ marked }

func (k markedAwaiting) Awaiting() string { return signer.Awaiting(k.Key) }
