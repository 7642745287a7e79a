package exchange

import "context"

// pinKey is the context key of AsAccount's session.
type pinKey struct{}

// AsAccount is ctx whose calls that take the session go only as s's account
// (sameAccount): a journaled withdrawal is re-sent, its status asked and its
// answer journaled as the account that signed it, even when a login as
// another landed on the same client between the check of its account and
// the request (the console's History resume, behind a login). Such a call
// is never sent (*NotSentError over an *OtherAccountError, Meanwhile); a
// renewal of s's account goes on.
func AsAccount(ctx context.Context, s Session) context.Context {
	return context.WithValue(ctx, pinKey{}, s)
}

// pinned refuses asked, the session a call would go with, when ctx is
// pinned to another account's (AsAccount); logged out, the call says so
// itself.
func pinned(ctx context.Context, asked Kept) error {
	pin, ok := ctx.Value(pinKey{}).(Session)
	if !ok || asked.Cookie == "" || sameAccount(pin, asked.Session) {
		return nil
	}
	return &NotSentError{Err: &OtherAccountError{Was: pin, Now: asked.Session, Meanwhile: true}}
}
