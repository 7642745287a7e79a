package osguard

import (
	"strings"
	"testing"
)

// TestBriefSaysTheHolderAndTheFileByName: a wait said briefly (the
// console's standing word) names the holder and the file by its name,
// drops the folder and the lock where the lock is the file's folder or
// beside it, names a lock elsewhere whole, and keeps what svcwallet does.
func TestBriefSaysTheHolderAndTheFileByName(t *testing.T) {
	const dir = "/home/u/.local/state/svcwallet/"
	for _, tc := range []struct {
		w    Waiting
		want string
	}{
		{Waiting{Wait: Wait{Doing: "checking and recording a withdrawal in the journal " + dir + "journal.jsonl", Unbounded: true}, Lock: dir + "journal.jsonl.lock", Holder: "process 4242 (svcwallet)"},
			"process 4242 (svcwallet) is checking and recording a withdrawal in the journal journal.jsonl; svcwallet waits for it to finish…"},
		{Waiting{Wait: Wait{Doing: "writing the journal " + dir + "journal.jsonl or its record"}, Lock: dir + "journal.jsonl.written.lock"},
			"another process is writing the journal journal.jsonl or its record; svcwallet gives up after 30s…"},
		{Waiting{Wait: Wait{Doing: "editing the config /home/u/.config/svcwallet/config.toml"}, Lock: "/home/u/.config/svcwallet", Holder: "process 7 (flock)"},
			"process 7 (flock) is editing the config config.toml; svcwallet gives up after 30s…"},
		{Waiting{Wait: Wait{Doing: "editing the config /etc/x.toml"}, Lock: "/run/locks/x.lock"},
			"another process is editing the config /etc/x.toml, holding /run/locks/x.lock; svcwallet gives up after 30s…"},
	} {
		if got := tc.w.Brief(); got != tc.want {
			t.Errorf("Brief\n got %q\nwant %q", got, tc.want)
		}
		if !strings.Contains(tc.w.String(), tc.w.Lock) {
			t.Errorf("String lost the lock: %s", tc.w)
		}
	}
}
