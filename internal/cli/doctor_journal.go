package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/journal"
)

// acceptJournalFlag is doctor's flag that accepts a journal that lost
// lines as it now is.
const acceptJournalFlag = "--accept-journal"

// checkWritten reports a journal that lost lines svcwallet wrote to it
// (journal.RolledBackError, the whole of it summed): what was lost, the
// withdrawals it then held unanswered, and how to accept it as it now is.
func (c doctorCmd) checkWritten(j *journal.Journal, add func(check, detail, fix string)) {
	err := j.CheckWritten(true)
	lost, ok := errors.AsType[*journal.RolledBackError](err)
	switch {
	case err != nil && !ok:
		fix := "check the state directory's permissions"
		if errors.As(err, new(*osguard.LockHeldError)) { // its permissions are not at fault
			fix = "end the process that holds the journal's lock (or wait for it to end), then run " + c.app.invocation().command("doctor") + " again"
		}
		add("journal", fmt.Sprintf("what svcwallet wrote to %s cannot be checked: %v", safetext.Shown(j.Path()), err), fix)
		return
	case err == nil:
		return
	}
	detail := lost.Error()
	fix := "run " + c.app.invocation().command("doctor", acceptJournalFlag) + " to accept the journal as it now is"
	if ids := journal.QuoteIDs(lost.Unanswered); len(ids) > 0 {
		if len(lost.Missing) > 0 {
			detail += fmt.Sprintf(" (%d of them no longer in it: %s)", len(lost.Missing), strings.Join(journal.QuoteIDs(lost.Missing), ", "))
		}
		fix = "put back the journal svcwallet wrote if you can; else ask the service about each (" +
			c.app.invocation().commandOn([]string{"status"}, ids) + "), then " + fix
	}
	add("journal", detail, fix)
}

// acceptJournal is doctor --accept-journal: the journal is recorded as it
// now is, after its lost lines were looked at.
func (c doctorCmd) acceptJournal() error {
	j, err := journal.Open(journal.DefaultPath())
	if err != nil {
		return failure(exitFailed, "the withdrawal journal cannot be opened: %w", err)
	}
	n, err := j.AcceptAsItIs()
	if err != nil {
		return failure(exitFailed, "the withdrawal journal cannot be accepted as it is: %w", err)
	}
	fmt.Fprintf(c.env.Stderr, "%s: the withdrawal journal %s is accepted as it now is (%d %s unanswered in it): withdrawals are signed on it again\n",
		c.app.name, safetext.Shown(j.Path()), n, kit.Plural(n, "withdrawal", "withdrawals"))
	return nil
}

// checkSameService warns of environments that name one service (a chain
// id in common): their withdrawals are one account's money, which the
// repeat guard treats as one.
func (c doctorCmd) checkSameService(cfg config.Config, add func(check, detail, fix string)) {
	for _, pair := range cfg.SameService() {
		a, b := pair[0], pair[1]
		hosts := "the same base host " + safetext.Line(a.Service().Host, 300)
		if a.Service().Host != b.Service().Host {
			hosts = "base hosts " + safetext.Line(a.Service().Host, 300) + " and " + safetext.Line(b.Service().Host, 300) + " (a proxy and the direct URL?)"
		}
		add("environments", fmt.Sprintf("%s and %s name one service (chain id %d, %s): the withdrawals of an account are the same through both, and an identical one unanswered through either stops a new one through the other; a withdrawal is resumed only through the base host it was sent to",
			a.Name, b.Name, a.ChainID, hosts),
			"keep one environment per service, unless one is a proxy of the other; two services on one chain id need their own chain ids")
	}
}
