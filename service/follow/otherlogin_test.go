package follow

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// TestAnotherAccountsIDsSaid: a follow a login as another account ended,
// and ids an earlier login followed, are said with the account to log in
// as, each account with its own ids, never one account for all.
func TestAnotherAccountsIDsSaid(t *testing.T) {
	changed := &LoginChangedError{Was: exchange.Session{AccountID: "acct-a"}, Now: exchange.Session{AccountID: "acct-b"}}
	if got, want := changed.Error(), "these withdrawals were followed as account acct-a, and the login is now account acct-b's, whose service does not know them: "+
		"nothing more was asked; log in as account acct-a to follow them again"; got != want {
		t.Errorf("login changed:\n got %q\nwant %q", got, want)
	}
	changed.One = true
	if got, want := changed.Error(), "this withdrawal was followed as account acct-a, and the login is now account acct-b's, whose service does not know it: "+
		"nothing more was asked; log in as account acct-a to follow it again"; got != want {
		t.Errorf("login changed, one followed:\n got %q\nwant %q", got, want)
	}
	for _, c := range []struct {
		held map[string]int
		want string
	}{
		{nil, ""},
		{map[string]int{"acct-a": 1}, "1 withdrawal was followed as account acct-a (an earlier login) and is not asked by this login: log in as account acct-a to follow it."},
		{map[string]int{"acct-a": 3}, "3 withdrawals were followed as account acct-a (an earlier login) and are not asked by this login: log in as account acct-a to follow them."},
		{map[string]int{"acct-c": 1, "acct-a": 2}, "3 withdrawals were followed as other accounts (earlier logins) and are not asked by this login: " +
			"log in as account acct-a to follow 2 of them, log in as account acct-c to follow 1."},
	} {
		if got := HeldSaid(c.held); got != c.want {
			t.Errorf("HeldSaid(%v):\n got %q\nwant %q", c.held, got, c.want)
		}
	}
	held := Followed{Follow: Follow{QuoteID: "q-held"}, As: "acct-a", Held: true}
	if o := held.Outcome(); o.Name != LabelOtherLogin || !strings.HasSuffix(o.Words, "log in as account acct-a to follow it.") {
		t.Errorf("a held id reads %s: %q; want the account to log in as", o.Name, o.Words)
	}
}
