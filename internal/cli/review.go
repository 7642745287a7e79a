package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/svcwallet/svcwallet/internal/plain"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/signer"
)

// reviewRow writes one line of a review: the label in a column lw wide,
// the value, and its note; on a terminal (w from plain.Fitted) a value that
// wraps continues under the value's column (plain.Row).
func reviewRow(w io.Writer, lw int, label, value, note string) {
	reviewPathRow(w, lw, label, value, note, "")
}

// reviewPathRow is reviewRow of a value or note that names path, kept
// whole on a terminal (plain.PathRow).
func reviewPathRow(w io.Writer, lw int, label, value, note, path string) {
	if note != "" {
		value += "  " + note
	}
	head := fmt.Sprintf("  %-*s ", lw, label)
	if value = strings.TrimRight(value, " "); value == "" {
		head = strings.TrimRight(head, " ")
	}
	plain.PathRow(w, head, value, path)
}

// printFacts writes a journey's facts as review rows.
func printFacts(w io.Writer, lw int, facts []intent.Fact) {
	for _, f := range facts {
		reviewRow(w, lw, f.Label, f.Value, f.Note)
	}
}

// printTypedData prints what the key will sign, the one printer of every
// signed intent's review: the domain, the message field by field with what
// each means, the digest, for a key that waits for a person (a device that
// signs blind shows them) the domain and message hashes, and the key.
func printTypedData(w io.Writer, r intent.Review, key *keyChoice) {
	lw := r.LabelWidth()
	row := func(label, value, note string) { reviewRow(w, lw, label, value, note) }
	fmt.Fprintln(w, "To sign (EIP-712)")
	row("Domain", `name "`+r.Domain.Name+`" · version "`+signer.DomainVersion+`" · chainId `+fmt.Sprint(r.Domain.ChainID), "")
	row("Message", r.Message.PrimaryType(), "")
	fields := r.Fields()
	for i, f := range fields {
		row("  "+f.Name, fmt.Sprintf("%-*s", runWidth(fields, i), f.Value), f.Meaning)
	}
	row("Digest", r.Digest().Hex(), "")
	if key == nil {
		return
	}
	if key.Source.Waits() {
		printFacts(w, lw, r.BlindFacts())
	}
	reviewPathRow(w, lw, "Signer", key.Address.Hex(), "from "+key.what, key.file)
}

// runWidth is the widest value of the run of noted fields of fields[i]'s
// type around it, so the notes of such a run (the two fee caps, 1000 and
// 500) start in one column; another note stays beside its value.
func runWidth(fields []intent.Field, i int) int {
	same := func(j int) bool { return fields[j].Type == fields[i].Type && fields[j].Meaning != "" }
	if !same(i) {
		return 0
	}
	lo, hi := i, i
	for lo > 0 && same(lo-1) {
		lo--
	}
	for hi < len(fields)-1 && same(hi+1) {
		hi++
	}
	w := 0
	for _, f := range fields[lo : hi+1] {
		w = max(w, len(f.Value))
	}
	return w
}

// printDryRun ends a dry run: nothing was signed or sent, and the typed
// data as a wallet takes it.
func printDryRun(w io.Writer, in intent.Intent) {
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, in.TypedData(), "", "  ")
	fmt.Fprintf(w, "Dry run: nothing was signed or sent.\n\nTyped data (eth_signTypedData_v4):\n%s\n", pretty.Bytes())
}
