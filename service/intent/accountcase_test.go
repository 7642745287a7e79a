package intent

import (
	"errors"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/journal"
)

// TestFindAnyCaseOfItsAddress: a Transfer prepared with the account id in
// one letter case of its address is found, and its send seen, by the
// session the service answers in another (exchange.SameAccountID): it was
// "not prepared on this machine", and once sent it was not seen as sent.
func TestFindAnyCaseOfItsAddress(t *testing.T) {
	const lower = "0x5f1c2e9a3b7d4c1308a6e2f9b0c4d7e1a2b3c4d5"
	w := transferLine("prod", lower, "q-1", 1)
	upper := "0x" + strings.ToUpper(lower[2:])
	if _, err := Find([]journal.Entry{w}, journal.PreparedWithdrawal, "prod", upper, fromLine(w).File()); err != nil {
		t.Errorf("prepared as %s, looked up as %s: %v", lower, upper, err)
	}
	sent := sentLine(w, journal.KindIntent)
	sent.AccountID = upper
	var done *SubmittedError
	if _, err := Find([]journal.Entry{w, sent}, journal.PreparedWithdrawal, "prod", lower, fromLine(w).File()); !errors.As(err, &done) {
		t.Errorf("sent as %s, its Transfer prepared as %s is not seen as sent: %v", upper, lower, err)
	}
}
