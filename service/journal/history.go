package journal

import "sort"

// Unanswered reports a withdrawal whose request got no answer yet: it may
// have executed, and only the console's resume (same body) or the status
// can tell.
func (r Record) Unanswered() bool { return !r.Answered }

// EnvHistory is the journal's withdrawals in one environment, the unfinished
// ones (those that still need the user) first, each group newest first.
func EnvHistory(recs []Record, env string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Env == env {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(a, b int) bool {
		if fa, fb := out[a].Finished(), out[b].Finished(); fa != fb {
			return !fa
		}
		return out[a].Started.After(out[b].Started)
	})
	return out
}
