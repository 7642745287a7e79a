package journal

import (
	"encoding/json"
	"fmt"
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
