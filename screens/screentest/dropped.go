package screentest

import (
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/screens/kit"
)

// Dropped is a key typed while a screen holds its keys (kit.KeyHold), and
// whether it acts there once they are enabled.
type Dropped struct {
	Key  string
	Acts bool
}

// RequireDroppedSaid types each key with press while the screen holds its
// keys, and requires what it then shows (view) to say the key was not
// taken (kit.NotTaken) only where it acts once keys are enabled, and that
// it does nothing on the screen (kit.NotAKey) where it never acts: a
// message names only keys that act.
func RequireDroppedSaid(t *testing.T, name string, press func(k string), view func() string, keys ...Dropped) {
	t.Helper()
	for _, k := range keys {
		press(k.Key)
		want, not := kit.NotTaken(k.Key), kit.NotAKey(k.Key)
		if !k.Acts {
			want, not = not, want
		}
		if v := OneLine(view()); !strings.Contains(v, want) || strings.Contains(v, not) {
			t.Errorf("%s: %s typed in the hold (acts once keys are enabled: %v) is not said %q:\n%s", name, k.Key, k.Acts, want, v)
		}
	}
}
