//go:build unix

package cli

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestWithdrawAcceptedButNotRecorded: a disk that fills up once the intent
// is written (a file-size limit set as the request leaves): withdraw says
// the withdrawal was accepted but could not be recorded, names its quote
// id and the withdraw resume that reconciles it, and exits 6 (--json code
// unrecorded); that resume, once there is room, sends the identical
// request (paid once) and the journal has its answer. It runs in a child
// process, as the limit applies to the whole process.
func TestWithdrawAcceptedButNotRecorded(t *testing.T) {
	if !exchangetest.InChild(t, "exit 6, then resumed") {
		return
	}
	state := withdrawState(t)
	r := newStatusRig(t)
	lift := func() {}
	fill := func(_ http.ResponseWriter, _ *http.Request, _ http.Handler) bool {
		lift = exchangetest.RoomAfter(t, filepath.Join(state, "journal.jsonl"), 40) // the intent fits; 40 bytes of the acceptance do
		return false
	}
	r.withdrawHook.Store(&fill)
	res := r.runWithdraw(withdrawRunOpts{}, withdrawArgs(sandbox.DestCompleted, "25", "--env", "local", "--yes", "--json")...)
	r.withdrawHook.Store(nil)
	lift()
	if res.code != exitUnrecorded {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, exitUnrecorded, res.stdout, res.stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.stdout), "\n")
	var e errorJSON
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &e); err != nil || e.Error.Code != "unrecorded" || e.QuoteID == "" ||
		!strings.Contains(e.Error.Message, "withdrawal "+e.QuoteID+" was accepted, but the journal could not record it") ||
		!strings.Contains(e.Error.Message, "svcwallet withdraw resume "+e.QuoteID) || !strings.Contains(res.stdout, `"kind":"accepted"`) {
		t.Fatalf("--json output %s (%v): want the acceptance, then the unrecorded error naming the quote id and its resume", res.stdout, err)
	}
	r.wantBalance("9975")
	r.runWithdraw(withdrawRunOpts{}, "resume", e.QuoteID, "--env", "local").want(t, exitCompleted, "Withdrawal accepted", "State        COMPLETED")
	r.wantBalance("9975")
	if n := r.withdraws.Load(); n != 2 {
		t.Fatalf("%d withdraw requests, want the first and resume's identical one", n)
	}
	t.Log("exit 6, then resumed")
}
