//go:build !windows

package signer

import (
	"reflect"
	"testing"
)

// TestSplitCommandElsewhere: outside Windows a signing command is read as
// a POSIX shell reads it, where a backslash escapes.
func TestSplitCommandElsewhere(t *testing.T) {
	if got, err := SplitCommand(`/opt/my\ tools/cast wallet sign 'a b'`); err != nil || !reflect.DeepEqual(got, []string{"/opt/my tools/cast", "wallet", "sign", "a b"}) {
		t.Errorf("%q, %v", got, err)
	}
}
