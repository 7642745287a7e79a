package follow

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// Another account's withdrawals are that account's: its service alone
// knows them, and asked as this login each would end NOT FOUND, for good.
// A follow ended by a login as another account (LoginChangedError) and the
// ids kept by an earlier login (Followed.Held) are said here, once, with
// the account to log in as; the faces only place the words.

func (e *LoginChangedError) Error() string {
	what, n, it := "these withdrawals were", 2, "them"
	if e.One {
		what, n, it = "this withdrawal was", 1, "it"
	}
	return what + " followed as account " + e.Was.AccountID + ", and the login is now account " + e.Now.AccountID +
		"'s, whose service does not know " + it + ": nothing more was asked; " + logInToFollow(e.Was.AccountID, n, 0) + " again"
}

// Sentence is e said alone, as a screen shows it: capitalized, ended.
func (e *LoginChangedError) Sentence() string { return safetext.Capitalized(e.Error()) + "." }

// LoginChanged is err as a LoginChangedError when it refuses an ask made
// as a follow's account (Loop.As, or a face's own call pinned so with
// exchange.AsAccount) on a client logged in as another meanwhile.
func LoginChanged(err error) *LoginChangedError {
	if other, ok := errors.AsType[*exchange.OtherAccountError](err); ok && other.Meanwhile {
		return &LoginChangedError{Was: other.Was, Now: other.Now}
	}
	return nil
}

// otherAccount reports whether an id followed as account as is another's
// than the login account's: both named, and not one account.
func otherAccount(as, account string) bool {
	return as != "" && account != "" && !exchange.SameAccountID(as, account)
}

// AnotherLogins reports whether f was followed as another account than
// the scheduler's login: moving (Held) or ended, this login never asks it.
func (s *Scheduler) AnotherLogins(f Followed) bool { return otherAccount(f.As, s.Account) }

// HeldSentence says of one id account as followed, an earlier login, that
// this login does not ask it, and who to log in as.
func HeldSentence(as string) string {
	return "Followed as account " + as + " (an earlier login), whose service alone knows it: not asked by this login; " + logInToFollow(as, 1, 0) + "."
}

// HeldSaid says the ids earlier logins followed, of which heldBy counts
// each account's, and which account to log in as to follow each: never one
// account for all. "" when there are none.
func HeldSaid(heldBy map[string]int) string {
	accounts := slices.Sorted(maps.Keys(heldBy))
	held := 0
	for _, n := range heldBy {
		held += n
	}
	switch len(accounts) {
	case 0:
		return ""
	case 1:
		as := accounts[0]
		return fmt.Sprintf("%s followed as account %s (an earlier login) and %s not asked by this login: %s.",
			counted(held, "withdrawal was", "withdrawals were"), as, plural(held, "is", "are"), logInToFollow(as, held, 0))
	}
	each := make([]string, len(accounts))
	for i, as := range accounts {
		each[i] = logInToFollow(as, heldBy[as], held)
	}
	return fmt.Sprintf("%d withdrawals were followed as other accounts (earlier logins) and are not asked by this login: %s.", held, strings.Join(each, ", "))
}

// logInToFollow is the next step for n ids account as followed, of all
// said together (0: they are all).
func logInToFollow(as string, n, all int) string {
	what := plural(n, "it", "them")
	if all > 0 {
		what = plural(n, "1", fmt.Sprintf("%d of them", n))
	}
	return "log in as account " + as + " to follow " + what
}

// counted is n with its noun and verb ("1 withdrawal was").
func counted(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
