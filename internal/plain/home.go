package plain

import (
	"context"
	"errors"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/journal"
)

// homeItem is one way on from the home menu.
type homeItem struct {
	name string
	run  func(*session) error
}

// homeMenu is the console's home, in its order, and quit.
var homeMenu = []homeItem{
	{"Deposit addresses", (*session).deposit},
	{"Withdraw USDT", (*session).withdraw},
	{"Builder authorization", (*session).authorizeBuilder},
	{"Look up a withdrawal's status", (*session).lookUp},
	{"History", (*session).history},
	{"Quit", nil},
}

// home offers the menu until the user quits. A flow's failure is said
// and the menu offered again; the input's end and ctrl+c end plain mode.
func (s *session) home() error {
	names := make([]string, len(homeMenu))
	for i, it := range homeMenu {
		names[i] = it.name
	}
	for {
		s.p.Blank()
		s.homeNote()
		i, err := s.p.Choose("Home: what next?", Options(names...))
		if err != nil {
			return err
		}
		if homeMenu[i].run == nil {
			s.p.Say("Goodbye: %s.", s.whatWasSent())
			return nil
		}
		s.p.Blank()
		s.p.Say("%s", homeMenu[i].name)
		s.p.Back = true
		err = homeMenu[i].run(s)
		s.p.Back = false
		if err != nil {
			if errors.Is(err, ErrBack) {
				continue
			}
			if errors.Is(err, ErrEnd) || errors.Is(err, ErrInterrupted) || errors.Is(err, ErrNoTerminal) || s.ctx.Err() != nil {
				return s.interrupted(err)
			}
			s.p.Say("%s.", trimStop(exchange.Explain(err)))
		}
		// A session that ended (exchange.SessionEndedError, said by the
		// flow) logs the client out, and Home's choices all need one: the
		// login its words ask for is asked, as the console opens its.
		if _, in := s.client().Session(); !in {
			s.p.Blank()
			if err := s.logIn(); err != nil {
				return err
			}
		}
	}
}

// homeNote says, as the console's home does, how many of this account's
// withdrawals are unfinished, or that the journal cannot be read.
func (s *session) homeNote() {
	recs, err := s.unfinished()
	switch {
	case err != nil:
		s.p.Say("The withdrawal journal cannot be read (%v): run %s.", err, s.command("doctor"))
	case len(recs) == 1:
		s.p.Say("1 withdrawal is unfinished: see History.")
	case len(recs) > 1:
		s.p.Say("%d withdrawals are unfinished: see History.", len(recs))
	}
}

// unfinished are this account's unfinished withdrawals in the journal.
func (s *session) unfinished() ([]journal.Record, error) {
	recs, _, err := s.target.Journal.UnfinishedRecords(s.target.Owner())
	return recs, err
}

// waitFor is the context of a wait the key source or the service bounds
// (a signature awaited in clef, a send): only ctrl+c ends it early.
func (s *session) waitFor() (context.Context, context.CancelFunc) {
	return context.WithCancel(s.ctx)
}
