// Package plain is the console's flows as line prompts, for screen
// readers, dumb terminals and anyone who prefers them: no alternate screen,
// no cursor movement, no colour. Questions are asked one a line and choices
// numbered; a review is lines of text; a followed withdrawal prints each
// state change once. Every flow calls the domain workflow the console and
// the commands call (the exchange client, withdrawal, builder, follow,
// intent): plain mode words and asks, it decides nothing of its own.
package plain

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/runnext"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/signer"
)

// PlainVar turns plain mode on, as --plain does.
const PlainVar = "SVCWALLET_PLAIN"

// Wanted reports whether the console runs in plain mode. A choice made
// says so: --plain or --plain=false (flag, nil when not given), else
// $SVCWALLET_PLAIN set true or false. Without one, $ACCESSIBLE set true
// (as charmbracelet/huh reads it: 1, t, true...) or a terminal that says
// it draws nothing (TERM=dumb) chooses it; SVCWALLET_PLAIN=0 still opens
// the full screen there.
func Wanted(flag *bool, getenv func(string) string) bool {
	if flag != nil {
		return *flag
	}
	if on, err := strconv.ParseBool(getenv(PlainVar)); err == nil {
		return on
	}
	if on, err := strconv.ParseBool(getenv("ACCESSIBLE")); err == nil && on {
		return true
	}
	return getenv("TERM") == "dumb"
}

// Console is plain mode's fixed dependencies.
type Console struct {
	// Targets are the environments offered, always in one order, so a
	// number chooses the same one whatever was chosen before.
	Targets []target.Target
	// Given is the environment named by --env or $SVCWALLET_ENV: taken
	// without asking. "" asks when there are several.
	Given string
	// Default is the environment every command takes when none is given
	// (default_env, else the sandbox): an empty line takes it.
	Default     string
	KeystoreDir string
	Getenv      func(string) string
	// ConfigFlag is the --config the console was started with, repeated in
	// the commands it prints.
	ConfigFlag string
	// Now, After and Nonce are the clock, the waits between status asks
	// and signature nonces: tests fake them.
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
	Nonce func() uint32
	// LoadKeystore decrypts a keystore file (signer.LoadKeystoreKey).
	LoadKeystore func(path, passphrase string) (signer.Key, error)
	// Running counts the signatures signing commands are making; the
	// caller closes it when plain mode ends.
	Running *signer.Running
	// PollInterval is the wait between two asks of a moving withdrawal.
	PollInterval time.Duration
	// Gate is the rule of the questions that sign (TerminalGate of the
	// input and output): the zero Gate asks none.
	Gate Gate
	// EarlierJournals are the journals an earlier svcwallet left beside
	// the one in use (osguard.LeftBeside), said before the first question.
	EarlierJournals []osguard.Moved
}

// Run runs plain mode until the user quits or the input ends (nil), ctx
// ends (ErrInterrupted: ctrl+c; what was signed or sent is said first), or
// something fails that plain mode cannot go on from.
func (c *Console) Run(ctx context.Context, in io.Reader, out io.Writer, secret SecretReader) error {
	s := &session{Console: c, p: NewPrompter(ctx, in, out, secret), ctx: ctx}
	s.p.gate = c.Gate
	defer s.p.giveEchoBack() // the terminal given back echoing
	err := s.run()
	switch {
	case errors.Is(err, ErrInterrupted) || ctx.Err() != nil:
		s.p.Blank()
		s.p.Say("Interrupted: %s.", s.whatWasSent())
		return ErrInterrupted
	case errors.Is(err, ErrEnd):
		s.p.Say("The input ended: quitting; %s.", s.whatWasSent())
		return nil
	}
	return err
}

// session is one run of plain mode: the login, and what it sent.
type session struct {
	*Console
	p      *Prompter
	ctx    context.Context
	target target.Target
	// wallet is the key logged in with, from where it is; nil after a
	// login by API key.
	wallet     signer.Key
	walletFrom string
	// walletSent: a wallet login was signed and sent this run, though a
	// login after the session ended may have been by API key.
	walletSent bool
	// sent lists what this run signed and sent, for the last words;
	// unsent what it signed and was stopped before sending; unpaid what
	// it signed and the service refused or a check stopped, unpaid;
	// notSent what it signed whose request never left on any attempt.
	sent, unsent, unpaid, notSent []string
	// argumentWarning says a signing command's secret in its arguments
	// once a session (warnArgumentSecret).
	argumentWarning signer.ArgumentWarning
}

func (s *session) client() *exchange.Client { return s.target.Client }

// whatWasSent says what this run signed and sent: a wallet login's
// signature too, which was signed and sent even when nothing else was,
// and a withdrawal signed and stopped before its request left (a first
// one, refused as expired, may have left: stopped unpaid says both).
func (s *session) whatWasSent() string {
	var said []string
	if s.walletSent {
		said = append(said, "the wallet login was signed and sent")
	}
	if len(s.sent) > 0 {
		said = append(said, "this session sent "+strings.Join(s.sent, " and "))
	}
	if len(s.unsent) > 0 {
		said = append(said, strings.Join(s.unsent, " and ")+" was signed and stopped unpaid")
	}
	if len(s.unpaid) > 0 {
		said = append(said, strings.Join(s.unpaid, " and ")+" was signed and not paid")
	}
	if len(s.notSent) > 0 {
		said = append(said, strings.Join(s.notSent, " and ")+" was signed and not sent")
	}
	if len(said) == 0 {
		return "nothing was signed or sent"
	}
	return strings.Join(said, ", and ") + "; nothing else was signed or sent"
}

// command is a svcwallet command line for the user to run next, on this
// session's environment, quoted for their shell (runnext.Command).
func (s *session) command(words ...string) string {
	return runnext.Command(s.ConfigFlag, s.target.Env.Name, words...)
}

// call bounds one request under the session's context.
func (s *session) call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.ctx, exchange.CallTimeout)
}

// interrupted is ErrInterrupted when the session's context has ended
// (ctrl+c), so a request it cut short is said as the interruption it is;
// otherwise err.
func (s *session) interrupted(err error) error {
	if s.ctx.Err() != nil {
		return ErrInterrupted
	}
	return err
}

// run logs in, then offers the home menu until the user quits.
func (s *session) run() error {
	s.p.Say("svcwallet, plain mode: questions one a line; type a choice's number or name. An empty line asks again; back goes home where a question says so; ctrl+c quits.")
	s.p.Blank()
	s.sayEarlierJournals()
	// A session kept between runs (svcwallet auth login) needs no login.
	if t := s.Targets[0]; t.Kept {
		if sess, ok := t.Client.Session(); ok {
			s.target = t
			s.p.Say("Using the session kept for %s: account %s, by %s, until %s.", t.Env.Name, sess.AccountID, sess.Method, sess.Expires.UTC().Format("2006-01-02 15:04 UTC"))
			s.p.Blank()
			return s.home()
		}
	}
	if err := s.logIn(); err != nil {
		return err
	}
	return s.home()
}

// sayEarlierJournals says each journal an earlier svcwallet left beside the
// one in use, named escaped (safetext.Shown): the repeat guard never sees
// its withdrawals, and an earlier svcwallet still open may send more.
func (s *session) sayEarlierJournals() {
	for _, m := range s.EarlierJournals {
		if nm := m.NotMoved(); nm != nil {
			// Nothing may be at its new place: moved elsewhere, it stays unseen.
			s.p.Say("Warning: %s is a withdrawal journal an earlier svcwallet wrote, left at its earlier place: it could not be moved to %s (%s). "+
				"The withdrawals in it are not seen by the check that a withdrawal is sent once: before making one of them again, look it up by its quote id (Look up a withdrawal's status, on the home menu): the file is text, and a withdrawal's lines name it after \"quote_id\". "+
				"Quit the earlier svcwallet if one is still open: it records and sends withdrawals there. The next run moves the file once nothing stops it.", safetext.Shown(m.From), safetext.Shown(m.To), nm.Why())
			s.p.Blank()
			continue
		}
		s.p.Say("Warning: %s is a withdrawal journal an earlier svcwallet wrote, left at its earlier place. "+
			"The withdrawals in it are not seen by the check that a withdrawal is sent once: before making one of them again, look it up by its quote id (Look up a withdrawal's status, on the home menu): the file is text, and a withdrawal's lines name it after \"quote_id\". "+
			"Quit the earlier svcwallet if one is still open: it records and sends withdrawals there. "+
			"Then move that file elsewhere; never over %s, the journal in use.", safetext.Shown(m.From), safetext.Shown(m.To))
		s.p.Blank()
	}
}
