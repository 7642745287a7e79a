package plain

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/service/journal"
)

// TestJournalChangedOnceAnsweredStops: a journal rewritten in place, as
// long and ending as svcwallet wrote it, is found only once the person
// answered y (Execute sums every byte): plain mode says it as it says a
// journal that lost lines, nothing signed and the doctor named, and
// offers no new quote, which would be refused alike.
func TestJournalChangedOnceAnsweredStops(t *testing.T) {
	r := newRig(t)
	for i := range 60 {
		if err := r.journal.Append(journal.Entry{Time: r.clock.Now(), Kind: journal.KindState, Env: "sandbox", AccountID: "acct-other",
			QuoteID: fmt.Sprintf("q-filler%04d", i), State: "SENDING"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.journal.CheckWritten(false); err != nil { // records what is written
		t.Fatal(err)
	}
	raw, err := os.ReadFile(r.journal.Path())
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(raw, []byte("q-filler0000"))
	if at < 0 || len(raw)-at < 8<<10 {
		t.Fatal("no line 8 KiB before the journal's end")
	}
	f, err := os.OpenFile(r.journal.Path(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("q-changed000"), int64(at)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := r.run(steps(logIn, withdraw25, typed("y", "quit"))...)
	if err != nil {
		t.Fatal(err)
	}
	wants(t, out, "Stopped: the withdrawal journal", "is not what svcwallet wrote", "Nothing was signed. Run svcwallet doctor")
	if _, after, _ := strings.Cut(out, "Signing and sending"); strings.Contains(after, "Get a new quote") {
		t.Errorf("a new quote offered on a journal changed in place:\n%s", out)
	}
}
