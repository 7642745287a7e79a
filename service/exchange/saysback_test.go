package exchange

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRunsAsLookedForOneByOne: what the one pass over a string finds is
// what looking for every run of a credential through it finds, for the run
// that refuses and the run that is masked, on strings of few letters (so
// that runs repeat, overlap and nearly match) in both cases.
func TestRunsAsLookedForOneByOne(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 12))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abAB-"[r.IntN(5)]
		}
		return string(b)
	}
	for range 3000 {
		key, s := word(8+r.IntN(40)), word(r.IntN(120))
		if r.IntN(4) == 0 { // a run of the key itself, most of the time
			i := r.IntN(len(key))
			j := i + r.IntN(len(key)-i+1)
			at := r.IntN(len(s) + 1)
			s = s[:at] + key[i:j] + s[at:]
		}
		masked := min(12, len(key))
		said := max(masked, (len(key)+1)/2)
		if got, want := holdsSecret(s, []string{key}), holdsRun(s, key, said); got != want {
			t.Fatalf("key %q in %q: holdsSecret %v, looked for one by one %v", key, s, got, want)
		}
		if got, want := maskSecrets(s, credentials([]string{key})), maskRuns(s, key, masked); got != want {
			t.Fatalf("key %q in %q: masked %q, want %q", key, s, got, want)
		}
	}
}

// holdsRun looks for each run of n of key through s.
func holdsRun(s, key string, n int) bool {
	ls, lk := strings.ToLower(s), strings.ToLower(key)
	for i := 0; i+n <= len(lk); i++ {
		if strings.Contains(ls, lk[i:i+n]) {
			return true
		}
	}
	return false
}

// maskRuns hides each place of s where a run of n of key stands.
func maskRuns(s, key string, n int) string {
	ls, lk := strings.ToLower(s), strings.ToLower(key)
	hidden := make([]bool, len(s))
	for i := 0; i+n <= len(s); i++ {
		if strings.Contains(lk, ls[i:i+n]) {
			for j := i; j < i+n; j++ {
				hidden[j] = true
			}
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case !hidden[i]:
			b.WriteByte(s[i])
		case i == 0 || !hidden[i-1]:
			b.WriteString(secretSaidBack)
		}
	}
	return b.String()
}

// TestShortCredentialOnlyWhole: a credential under minHeldSecret counts as
// a whole string alone, refused and masked; inside a longer one it is
// found in honest words.
func TestShortCredentialOnlyWhole(t *testing.T) {
	const key = "demo-1"
	if !holdsSecret(key, []string{key}) {
		t.Fatal("a short key said back whole is not refused")
	}
	if holdsSecret("q-demo-1", []string{key}) || maskSecrets("see demo-1", credentials([]string{key})) != "see demo-1" {
		t.Fatal("a short key is looked for inside a longer string")
	}
	if maskSecrets(key, credentials([]string{key})) != secretSaidBack {
		t.Fatal("a short key that is the whole message is not masked")
	}
}

// holdsSecret is holdsAny of secrets prepared anew.
func holdsSecret(s string, secrets []string) bool {
	return holdsAny(s, credentials(secrets))
}
