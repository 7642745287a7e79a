package builder

import "testing"

// TestFailureHeadIsOneForEveryFace: the head of an authorization not
// accepted is decided here once, for the console and plain mode alike:
// authorized (and how that is known) only when taken, "so far" when the
// outcome is unknown, else not authorized.
func TestFailureHeadIsOneForEveryFace(t *testing.T) {
	for _, tc := range []struct {
		f    Failure
		want string
	}{
		{Failure{Fate: FateNotSent}, "Not authorized"},
		{Failure{Fate: FateLimited}, "Not authorized"},
		{Failure{Fate: FateRefused}, "Not authorized"},
		{Failure{Fate: FateUnknown, Answer: AnswerNone}, "Not authorized so far"},
		{Failure{Fate: FateTaken}, "Authorized, answer unreadable"},
		{Failure{Fate: FateTaken, TakenEarlier: true}, "Authorized by the earlier send"},
	} {
		if got := tc.f.Head(); got != tc.want {
			t.Errorf("fate %d (taken earlier %v): head %q, want %q", tc.f.Fate, tc.f.TakenEarlier, got, tc.want)
		}
	}
}
