package journal

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/shopspring/decimal"
	"github.com/svcwallet/svcwallet/internal/exchangetest"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
)

// randomEnvs are the environments of randomLine's lines: two names of the
// production service (one on another host), and staging.
var randomEnvs = []config.Environment{
	{Name: "production", BaseURL: "https://api.example", ChainID: 325},
	{Name: "prod-proxy", BaseURL: "https://proxy.example", ChainID: 325},
	{Name: "staging", BaseURL: "https://api.staging.example", ChainID: 327},
}

// randomLine is one line of a journal written by svcwallet or planted: a
// withdrawal's line of any kind, for a few quote ids of three accounts
// reached through three environments (randomEnvs), naming its service or
// (an earlier version's) not, or a line the reader skips.
func randomLine(r *rand.Rand, n int) string {
	accounts := []string{"acct-1", "acct-2", ""}
	env := randomEnvs[r.IntN(len(randomEnvs))]
	// Lines a few apart may share a time, or go back in it (another
	// process's clock).
	e := Entry{Time: genT0.Add(time.Duration(n/3-r.IntN(2)) * time.Second), Env: env.Name, AccountID: accounts[r.IntN(3)],
		QuoteID: fmt.Sprintf("q-%d", r.IntN(12))}
	if r.IntN(2) == 0 {
		e.Service = new(env.Service())
	}
	switch r.IntN(14) {
	case 0, 1, 2:
		in := genIntent(e.Env, e.AccountID, e.QuoteID, n, e.Time)
		in.Domain.ChainID, in.Request.Signature.ChainID, in.Service = env.ChainID, exchange.ChainIDNumber(env.ChainID), e.Service
		if r.IntN(3) == 0 {
			in.Domain, in.Transfer = nil, nil
		}
		e = in
	case 3:
		e.Kind = KindAccepted
	case 4, 5, 6, 7:
		e.Kind, e.State = KindState, stateNames[1+r.IntN(len(stateNames)-1)]
		if e.State == exchange.StateCompleted {
			e.TxHash = "0x" + strings.Repeat("cd", 32)
		}
	case 8:
		e.Kind, e.Error, e.NotSent = KindRejected, "The quote expired.", r.IntN(2) == 0
		if r.IntN(2) == 0 { // an earlier version's refusal: of a 303 it tells nothing
			e.Error, e.NotSent = []string{"The service refused: See Other (HTTP 303)", "The service refused: Bad Request (HTTP 400)"}[r.IntN(2)], false
		}
	case 9:
		in := genIntent(e.Env, e.AccountID, e.QuoteID, n, e.Time)
		in.Domain.ChainID = env.ChainID
		e.Kind, e.Intent, e.Domain, e.Transfer = KindPrepared, in.Intent, in.Domain, in.Transfer
		e.Prepared = &Prepared{Signer: common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), Fee: new(decimal.RequireFromString("0.5"))}
	case 10:
		return []string{"garbage", "", "{}", `{"kind":"state","state":"SENDING","STATE":"COMPLETED","env":"production","quote_id":"q-1"}`,
			strings.Repeat("x", maxJournalLine+10)}[r.IntN(5)]
	case 11:
		return fmt.Sprintf(`{"time":"2026-03-02T10:00:00Z","kind":"state","env":"production","account_id":"acct-1","quote_id":"q-%d","state":"PAID"}`, r.IntN(12))
	default:
		e.Kind, e.State = KindState, exchange.StateSending
	}
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// checkAgainstWhole holds every read through the index of j to what the
// whole journal says (AccountRecords, Entries): the same records, in the
// same order, and the same count of lines skipped.
func checkAgainstWhole(t *testing.T, j *Journal, what string) {
	t.Helper()
	whole, err := Open(j.Path())
	if err != nil {
		t.Fatal(err)
	}
	all, err := whole.Entries()
	if err != nil {
		t.Fatal(err)
	}
	recs, skipped, err := whole.RecordsSkipped()
	if err != nil {
		t.Fatal(err)
	}
	want := Tally{Withdrawals: len(recs), Unfinished: len(Unfinished(recs)), Skipped: skipped}
	save := saveEvery
	for _, saveEvery = range []int{5, 1 << 30} { // compacted at the end, or not
		if got, err := whole.Tally(); err != nil || got != want {
			t.Fatalf("%s: Tally = %+v, %v; want %+v (index saved every %d lines)", what, got, err, want, saveEvery)
		}
	}
	saveEvery = save
	for _, env := range []string{"production", "prod-proxy", "staging", "none"} {
		checkHistory(t, j, recs, skipped, env, what)
	}
	// Every read left the index whole, none by reading the journal again.
	if v := j.view; v != nil && !v.snap.wellFormed(v.end, len(v.envs.names)) {
		t.Fatalf("%s: the index in memory does not hold together", what)
	}
	for _, env := range randomEnvs {
		for _, acct := range []string{"acct-1", "acct-2", ""} {
			if env.Name == "prod-proxy" && acct != "acct-1" {
				continue // production's but for lines naming no chain: one account is enough
			}
			o := OwnerOf(env, acct)
			want, wantSkipped, err := whole.AccountRecords(o)
			if err != nil {
				t.Fatal(err)
			}
			got, skipped, err := j.UnfinishedRecords(o)
			if err != nil || skipped != wantSkipped || !sameList(got, Unfinished(want)) {
				t.Fatalf("%s: UnfinishedRecords(%s, %s) = %d records, %d skipped, %v\nwant %d, %d skipped\n%+v\n%+v",
					what, env.Name, acct, len(got), skipped, err, len(Unfinished(want)), wantSkipped, got, Unfinished(want))
			}
			ids := []string{"q-none"}
			for _, e := range all {
				if !slices.Contains(ids, e.QuoteID) {
					ids = append(ids, e.QuoteID)
				}
			}
			for _, some := range [][]string{ids, ids[:len(ids)/2+1]} {
				got, err = j.RecordsOf(o, some...)
				var of []Record
				for _, r := range want {
					if slices.Contains(some, r.QuoteID) {
						of = append(of, r)
					}
				}
				if err != nil || !sameList(got, of) {
					t.Fatalf("%s: RecordsOf(%s, %s) = %+v, %v; want %+v", what, env.Name, acct, got, err, of)
				}
			}
			for _, id := range ids[:min(len(ids), 4)] {
				entries, err := j.EntriesOf(o, id)
				var of []Entry
				held := slices.ContainsFunc(want, func(r Record) bool { return r.QuoteID == id })
				for _, e := range all {
					if held && e.AccountID == acct && e.QuoteID == id {
						of = append(of, e)
					}
				}
				if err != nil || !sameList(entries, of) {
					t.Fatalf("%s: EntriesOf(%s, %s, %s) = %d entries, %v; want %d", what, env.Name, acct, id, len(entries), err, len(of))
				}
			}
		}
	}
}

// envHistory is what History lists of env, from the whole journal's
// records: the unfinished first, each group newest first.
func envHistory(recs []Record, env string) []Record {
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

// checkHistory holds History of env to what the whole journal's records
// say (envHistory): the same records in the same order, the same widths,
// lines skipped and other environments, whole, cut to a few, and since a
// time.
func checkHistory(t *testing.T, j *Journal, recs []Record, skipped int, env, what string) {
	t.Helper()
	all := envHistory(recs, env)
	want := Listing{Count: len(all), Skipped: skipped}
	for _, r := range all {
		want.QuoteWidth, want.ChainWidth = max(want.QuoteWidth, len(r.QuoteID)), max(want.ChainWidth, len(r.Intent.Chain))
	}
	at := map[string]int{}
	for _, r := range recs {
		if r.Env == env {
			continue
		}
		if _, ok := at[r.Env]; !ok {
			at[r.Env] = len(want.Others)
			want.Others = append(want.Others, EnvCount{Env: r.Env})
		}
		want.Others[at[r.Env]].Withdrawals++
	}
	var got []Record
	var listing Listing
	err := j.History(ListOptions{Env: env}, func(l Listing) error { listing = l; return nil }, func(r Record) error {
		got = append(got, r)
		return nil
	})
	if err != nil || !sameList(got, all) || !reflect.DeepEqual(listing, want) {
		t.Fatalf("%s: History(%s) = %d records, %+v, %v\nwant %d, %+v\n%+v\n%+v", what, env, len(got), listing, err, len(all), want, got, all)
	}
	if len(all) < 2 || env != "production" { // the cuts of one environment are enough
		return
	}
	since := all[len(all)/2].Started
	var newer []Record
	for _, r := range all {
		if !r.Started.Before(since) {
			newer = append(newer, r)
		}
	}
	for _, opt := range []ListOptions{{Env: env, Limit: 1}, {Env: env, Limit: len(all) - 1}, {Env: env, Since: since}} {
		got = nil
		err := j.History(opt, func(Listing) error { return nil }, func(r Record) error {
			got = append(got, r)
			return nil
		})
		want := newer
		if opt.Limit > 0 {
			want = all[:opt.Limit]
		}
		if err != nil || !sameList(got, want) {
			t.Fatalf("%s: History(%+v) = %d records, %v; want %d", what, opt, len(got), err, len(want))
		}
	}
}

// TestIndexReadsAsWhole: through appends by another process, torn last
// lines, lines that are skipped, an index saved and loaded by another
// Journal, compactions, and a journal replaced, truncated or rewritten
// where it ends, the reads through the index say what the whole journal
// says: 24 seeds with -tags e2e, 3 in the everyday run (both ways of
// saving the index, as seeds alternate them).
func TestIndexReadsAsWhole(t *testing.T) {
	defer func(c, s int) { compactEvery, saveEvery = c, s }(compactEvery, saveEvery)
	compactEvery, saveEvery = 7, 5
	for seed := range uint64(exchangetest.Rounds(24, 3)) {
		r := rand.New(rand.NewPCG(seed, 1))
		// Every other journal keeps its last lines out of the index, and
		// its index file is written only by Tally.
		saveEvery = []int{5, 1 << 30}[seed%2]
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for step := range 20 {
			var b strings.Builder
			for range r.IntN(12) {
				b.WriteString(randomLine(r, n) + "\n")
				n++
			}
			what := fmt.Sprintf("seed %d step %d", seed, step)
			switch r.IntN(10) {
			case 0: // a last line still being written, or torn, or whole but for its newline
				line := randomLine(r, n)
				if r.IntN(2) == 0 {
					line = line[:r.IntN(len(line)+1)]
				}
				b.WriteString(line)
			case 1: // replaced by another file
				os.Remove(path)
			case 2: // emptied in place
				os.Truncate(path, 0)
			case 3: // its last line rewritten in place, as long
				if raw, err := os.ReadFile(path); err == nil && len(raw) > 2 {
					raw[len(raw)-2] = 'X'
					os.WriteFile(path, raw, 0o600)
				}
			}
			appendRaw(t, path, b.String())
			checkAgainstWhole(t, j, what+" (in memory)")
			if step%3 == 0 {
				again, _ := Open(path) // another command: the index file
				checkAgainstWhole(t, again, what+" (from the index file)")
			}
		}
	}
}

// TestIndexFileNotTrusted: an index file that does not hold together, names
// another journal, or names lines that are not there, is read as none:
// the journal is read whole and what it says is returned.
func TestIndexFileNotTrusted(t *testing.T) {
	path := indexedJournal(t)
	good, err := os.ReadFile(IndexPath(path))
	if err != nil {
		t.Fatalf("no index file written: %v", err)
	}
	if fi, _ := os.Stat(IndexPath(path)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("index file mode %v, want 0600", fi.Mode().Perm())
	}
	resum := reseal
	for name, bad := range map[string][]byte{
		"a flipped byte": flip(good, headerSize+3),
		"an unfinished one said finished, not resealed": finishFirstOpen(good),
		"cut short":            good[:len(good)-9],
		"another inode":        resum(putUint64(good, len(indexMagic)+8, 12345)),
		"longer than the file": resum(putUint64(good, len(indexMagic)+16, 1<<40)),
		"swapped offsets":      resum(swapOffsets(good)),
		"another's line":       resum(firstOffsetAt(good, 0)),
		"inside a line":        resum(firstOffsetAt(good, 1)),
		"entries out of order": resum(swapEntries(good)),
		"empty":                {},
		"the journal's own":    mustRead(t, path),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(IndexPath(path), bad, 0o600); err != nil {
				t.Fatal(err)
			}
			j, _ := Open(path)
			checkAgainstWhole(t, j, name)
		})
	}
}

// indexedJournal writes a journal of 40 withdrawals, 3 unfinished, and
// its index file, checked once; every read writes the index file until
// the test ends.
func indexedJournal(t *testing.T) string {
	t.Helper()
	save := saveEvery
	t.Cleanup(func() { saveEvery = save })
	saveEvery = 1
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	writeGenJournal(t, path, 40, 3)
	j, _ := Open(path)
	checkAgainstWhole(t, j, "first read")
	return path
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func flip(b []byte, i int) []byte {
	b = slices.Clone(b)
	b[i] ^= 1
	return b
}

// reseal puts the CRC of an index file's body back at its end.
func reseal(b []byte) []byte {
	b = slices.Clone(b)
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], crcTable()))
	return b
}

func putUint64(b []byte, at int, n uint64) []byte {
	b = slices.Clone(b)
	binary.LittleEndian.PutUint64(b[at:], n)
	return b
}

// swapOffsets swaps the first line of the first two withdrawals.
func swapOffsets(b []byte) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	offs := b[headerSize+n*entrySize:]
	second := int(binary.LittleEndian.Uint32(b[headerSize+entrySize+16:]))
	a, c := slices.Clone(offs[:8]), slices.Clone(offs[8*second:8*second+8])
	copy(offs[:8], c)
	copy(offs[8*second:], a)
	return b
}

// firstOffsetAt moves the first line of the first withdrawal whose lines
// do not start at the journal's start to off: the journal's first line,
// another withdrawal's, or the inside of it.
func firstOffsetAt(b []byte, off uint64) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	offs := b[headerSize+n*entrySize:]
	for i := range n {
		first := int(binary.LittleEndian.Uint32(b[headerSize+i*entrySize+16:]))
		if binary.LittleEndian.Uint64(offs[8*first:]) != 0 {
			binary.LittleEndian.PutUint64(offs[8*first:], off)
			return b
		}
	}
	panic("every withdrawal starts the journal")
}

// finishFirstOpen says the first unfinished withdrawal of an index file is
// COMPLETED, leaving its CRC as it was.
func finishFirstOpen(b []byte) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	for i := range n {
		at := headerSize + i*entrySize + 24
		if status(b[at]).open() {
			b[at] = byte(stRecord | stAnswered | status(slices.Index(stateNames[:], exchange.StateCompleted))<<stateShift)
			return b
		}
	}
	panic("no unfinished withdrawal")
}

func swapEntries(b []byte) []byte {
	b = slices.Clone(b)
	first, second := slices.Clone(b[headerSize:headerSize+entrySize]), b[headerSize+entrySize:headerSize+2*entrySize]
	copy(b[headerSize:], second)
	copy(b[headerSize+entrySize:], first)
	return b
}

// sameList is reflect.DeepEqual, an empty list being one.
func sameList[T any](a, b []T) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) }

// TestIndexFileLinkRefused: a link where the index file goes is neither
// read nor written through: the journal is read whole, and the link's
// target is left as it was.
func TestIndexFileLinkRefused(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	writeGenJournal(t, path, 40, 3)
	j, _ := Open(path)
	checkAgainstWhole(t, j, "first read")
	target := filepath.Join(dir, "elsewhere")
	if err := os.Rename(IndexPath(path), target); err != nil {
		t.Fatal(err)
	}
	planted := firstOffsetAt(mustRead(t, target), 0)
	if err := os.WriteFile(target, reseal(planted), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, IndexPath(path)); err != nil {
		t.Fatal(err)
	}
	appendRaw(t, path, string(genLines(t, "q-after", 41, false)[0])+"\n")
	again, _ := Open(path)
	checkAgainstWhole(t, again, "through a link")
	if fi, err := os.Lstat(IndexPath(path)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v, %v", fi, err)
	}
	if !slices.Equal(mustRead(t, target), reseal(planted)) {
		t.Fatal("the link's target was written")
	}
}

// TestNoJournalNoRecords: a nil journal (none configured) and a journal
// not yet written have no records, and nothing is created by reading.
func TestNoJournalNoRecords(t *testing.T) {
	var none *Journal
	if recs, skipped, err := none.UnfinishedRecords(genOwner); recs != nil || skipped != 0 || err != nil {
		t.Fatalf("nil journal: %v, %d, %v", recs, skipped, err)
	}
	if recs, err := none.RecordsOf(genOwner, "q-1"); recs != nil || err != nil {
		t.Fatalf("nil journal: %v, %v", recs, err)
	}
	if entries, err := none.EntriesOf(genOwner, "q-1"); entries != nil || err != nil {
		t.Fatalf("nil journal: %v, %v", entries, err)
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, _ := Open(path)
	if recs, skipped, err := j.UnfinishedRecords(genOwner); len(recs) != 0 || skipped != 0 || err != nil {
		t.Fatalf("no journal yet: %v, %d, %v", recs, skipped, err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("reading created the journal: %v", err)
	}
	if _, err := os.Lstat(IndexPath(path)); !os.IsNotExist(err) {
		t.Fatalf("reading created an index: %v", err)
	}
}

// TestIndexOfAnotherJournal: a journal replaced by another file of the same
// length and the same last bytes, in which a finished withdrawal's line
// became an unfinished one's, is not read through the old one's index.
func TestIndexOfAnotherJournal(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	writeGenJournal(t, path, 200, 1)
	j, _ := Open(path)
	checkAgainstWhole(t, j, "first read")
	raw := mustRead(t, path)
	// The third withdrawal's COMPLETED becomes the SENDING of a withdrawal
	// of its own, as long.
	done := []byte(`"quote_id":"q-00000002","state":"COMPLETED"`)
	open := []byte(`"quote_id":"q-99999992","state":"SENDING"  `)
	if i := bytes.Index(raw, done); i < 0 || len(done) != len(open) {
		t.Fatal("no line to change")
	}
	other := bytes.Replace(raw, done, open, 1)
	if err := os.WriteFile(filepath.Join(dir, "other"), other, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "other"), path); err != nil {
		t.Fatal(err)
	}
	checkAgainstWhole(t, j, "replaced, in memory")
	again, _ := Open(path)
	checkAgainstWhole(t, again, "replaced, from the index file")
}

// TestTallyTornLine: a last line without its newline is a line skipped,
// never its withdrawal's, whose other lines the view holds past its index.
func TestTallyTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	lines := genLines(t, "q-1", 1, false)
	appendRaw(t, path, string(lines[0])+"\n"+string(lines[1])+"\n")
	prepared := genIntent("production", "acct-1", "q-1", 1, genT0)
	prepared.Kind, prepared.Request = KindPrepared, nil
	prepared.Prepared = &Prepared{Signer: common.HexToAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"), Fee: new(decimal.Zero)}
	b, err := json.Marshal(prepared)
	if err != nil {
		t.Fatal(err)
	}
	appendRaw(t, path, string(b))
	j, _ := Open(path)
	if got, err := j.Tally(); err != nil || got != (Tally{Withdrawals: 1, Unfinished: 1, Skipped: 1}) {
		t.Fatalf("Tally = %+v, %v; want one withdrawal, unfinished, and a line skipped", got, err)
	}
}

// TestIndexWhileAnotherAppends: reads through the index while another
// Journal on the file (another process) appends and writes the index file
// too; once it is done, the reads say what the whole journal says.
func TestIndexWhileAnotherAppends(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 3
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	writer, _ := Open(path)
	reader, _ := Open(path)
	done := make(chan error)
	// A read starts after each append, and runs while the next ones are
	// made; a read with nothing appended since the last only spun the CPU.
	appended := make(chan struct{}, 1)
	go func() {
		for i := range 40 {
			for _, l := range genLines(t, genQuoteID(i), i, i%3 != 0) {
				var e Entry
				if err := json.Unmarshal(l, &e); err != nil {
					done <- err
					return
				}
				if err := writer.Append(e); err != nil {
					done <- err
					return
				}
				select {
				case appended <- struct{}{}:
				default:
				}
			}
			if _, _, err := writer.UnfinishedRecords(genOwner); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for reading := true; reading; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			reading = false
		case <-appended:
			if _, _, err := reader.UnfinishedRecords(genOwner); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkAgainstWhole(t, reader, "after the appends")
	if recs, _, _ := reader.UnfinishedRecords(genOwner); len(recs) != 14 {
		t.Fatalf("%d unfinished, want 14", len(recs))
	}
}

// TestHistoryIndexLies: an index file that holds together but says what
// the journal's lines do not (another's line, a finished withdrawal
// unfinished) stops History at that withdrawal with an error, and is
// removed: the next History says what the whole journal says.
func TestHistoryIndexLies(t *testing.T) {
	path := indexedJournal(t)
	good := mustRead(t, IndexPath(path))
	whole, _ := Open(path)
	recs, skipped, err := whole.RecordsSkipped()
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string][]byte{
		"another's line":                  reseal(firstOffsetAt(good, 0)),
		"a finished one said unfinished":  reseal(openFirstFinished(good)),
		"an unfinished one said finished": reseal(finishFirstOpen(good)),
	} {
		t.Run(name, func(t *testing.T) {
			exchangetest.Must(t, os.WriteFile(IndexPath(path), bad, 0o600))
			j, _ := Open(path)
			err := j.History(ListOptions{Env: "production"}, func(Listing) error { return nil }, func(Record) error { return nil })
			if !errors.Is(err, errStale) {
				t.Fatalf("History through a lying index: %v, want errStale", err)
			}
			if _, err := os.Lstat(IndexPath(path)); !os.IsNotExist(err) {
				t.Fatalf("the lying index is still there: %v", err)
			}
			checkHistory(t, j, recs, skipped, "production", name)
		})
	}
}

// openFirstFinished says the first finished withdrawal of an index file
// is SENDING, leaving its CRC as it was.
func openFirstFinished(b []byte) []byte {
	b = slices.Clone(b)
	n := int(binary.LittleEndian.Uint64(b[len(indexMagic)+32:]))
	for i := range n {
		at := headerSize + i*entrySize + 24
		if st := status(b[at]); st&stRecord != 0 && !st.open() {
			b[at] = byte(stRecord | stAnswered | status(slices.Index(stateNames[:], exchange.StateSending))<<stateShift)
			return b
		}
	}
	panic("no finished withdrawal")
}

// TestAbsorbInPlace: lines read past an index loaded from its file, and
// past one built in memory, are moved into it in place to the very index
// a read of the whole journal builds: a line of a new withdrawal, and the
// lines of many, new and not.
func TestAbsorbInPlace(t *testing.T) {
	defer func(s, c int) { saveEvery, compactEvery = s, c }(saveEvery, compactEvery)
	for _, added := range [][2]int{{40, 41}, {30, 60}} {
		compactEvery = 1 << 16
		path := indexedJournal(t)
		var more strings.Builder
		for i := added[0]; i < added[1]; i++ {
			lines := genLines(t, genQuoteID(i), i, i%4 != 0)
			if added[1]-added[0] == 1 {
				lines = lines[:1]
			}
			for _, l := range lines {
				more.Write(append(l, '\n'))
			}
		}
		appendRaw(t, path, more.String())
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, _ := f.Stat()
		whole := newView()
		if _, err := whole.readOn(f, fi, nil); err != nil {
			t.Fatal(err)
		}
		whole.compact()
		compactEvery = 7 // in memory, absorbed every 7 lines
		for name, v := range map[string]*view{"loaded from its file": loadIndex(IndexPath(path), f, fi), "built in memory": newView()} {
			if v == nil {
				t.Fatal("the index file was not loaded")
			}
			if _, err := v.readOn(f, fi, nil); err != nil {
				t.Fatal(err)
			}
			v.compact()
			if !bytes.Equal(v.snap.entries, whole.snap.entries) || !bytes.Equal(v.snap.offs, whole.snap.offs) {
				t.Errorf("%v added, %s: the index after absorbing differs from the whole journal's", added, name)
			}
		}
	}
}

// previousIndexMagics are the index formats before this one: 4 kept no
// acceptance apart (stAccepted), so a refusal after one read as finished;
// 5 kept the chain of the last intent line, not of the kept request's; 6
// no running sum of what it read, so a journal rewritten in place, as long
// and ending alike, was read on from its old mark (checkRead); 7 keyed an
// account's address by its letter case (keyFor); 8 read an earlier
// version's refusal of a 303 as finished, 9 one of an unreadable 2xx.
var previousIndexMagics = []string{"svcwjx4\n", "svcwjx5\n", "svcwjx6\n", "svcwjx7\n", "svcwjx8\n", "svcwjx9\n"}

// TestIndexOfAnEarlierFormatRebuilt: an index file an earlier version
// wrote, whole and matching its journal, is never trusted: here one that
// says a withdrawal accepted and then refused is finished, as format 4
// folded it. Its unfinished withdrawals are read from the journal, and the
// index file is written anew in today's format.
func TestIndexOfAnEarlierFormatRebuilt(t *testing.T) {
	defer func(s int) { saveEvery = s }(saveEvery)
	saveEvery = 1
	for _, previous := range previousIndexMagics {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		j, err := Open(path)
		exchangetest.Must(t, err)
		entries, _ := foldOrder([]int{0, 1, 2}) // intent, accepted, refused
		for _, e := range entries {
			exchangetest.Must(t, j.Append(e))
		}
		if _, err := j.Tally(); err != nil {
			t.Fatal(err)
		}
		old := mustRead(t, IndexPath(path))
		if n := binary.LittleEndian.Uint64(old[len(indexMagic)+32:]); n != 1 {
			t.Fatalf("the index holds %d withdrawals, want 1", n)
		}
		copy(old, previous)
		old[headerSize+24] = byte(stRecord | stAnswered) // refused: how format 4 folded these lines
		exchangetest.Must(t, os.WriteFile(IndexPath(path), reseal(old), 0o600))

		again, err := Open(path)
		exchangetest.Must(t, err)
		open, _, err := again.UnfinishedRecords(Owner{Env: "production", AccountID: "acct-1"})
		if err != nil || len(open) != 1 || open[0].State != exchange.StateSubmitted {
			t.Fatalf("unfinished through an index of format %q: %+v, %v; want the accepted withdrawal", previous, open, err)
		}
		if got := string(mustRead(t, IndexPath(path))[:len(indexMagic)]); got != indexMagic {
			t.Fatalf("the index file starts %q after a read, want %q: not rebuilt", got, indexMagic)
		}
	}
}
