package config

// ClosestName is the one of names (those the command at hand accepts) that
// a mistyped name is at most two edits from, for "did you mean"; "" when
// none is, or when two are equally near: a guess between them may be wrong.
func ClosestName(typed string, names []string) string {
	if near := ClosestNames(typed, names); len(near) == 1 {
		return near[0]
	}
	return ""
}

// ClosestNames are the names a mistyped name is nearest, at most two edits
// from it, all of them when several are equally near.
func ClosestNames(typed string, names []string) []string {
	var best []string
	bestDist := 2 // the farthest a suggestion may be
	for _, name := range names {
		switch d := editDistance(typed, name); {
		case d < bestDist:
			best, bestDist = []string{name}, d
		case d == bestDist:
			best = append(best, name)
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes (keys
// are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
