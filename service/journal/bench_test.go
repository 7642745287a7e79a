package journal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// The journal's costs, at 100,000 lines (20,000 withdrawals) and at a
// million (200,000), 5 of them unfinished: reading one line, the whole
// journal (history), and what a command reads through the index (Home,
// the repeat check, status of one id, a follower's state), in a new
// process (a new Journal: the index file, then the lines written since)
// and in the console's (the same Journal).

var benchSizes = []struct {
	name        string
	withdrawals int
}{{"100k", 20_000}, {"1M", 200_000}}

// benchJournal writes a generated journal and its index (the first read,
// outside the timing) in dir.
func benchJournal(b *testing.B, withdrawals int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "journal.jsonl")
	writeGenJournal(b, path, withdrawals, 5)
	j, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	if recs, _, err := j.UnfinishedRecords(genOwner); err != nil || len(recs) != 5 {
		b.Fatalf("%d unfinished, %v", len(recs), err)
	}
	if _, err := os.Stat(IndexPath(path)); err != nil {
		b.Fatalf("no index written: %v", err)
	}
	return path
}

func BenchmarkParseLine(b *testing.B) {
	for i, l := range genLines(b, genQuoteID(1), 1, true) {
		name := []string{"intent", "accepted", "submitted", "sending", "completed"}[i]
		b.Run(fmt.Sprintf("%s-%dB", name, len(l)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parseJournalLine(l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRecordsWhole: the whole journal folded (history, History).
func BenchmarkRecordsWhole(b *testing.B) {
	path := filepath.Join(b.TempDir(), "journal.jsonl")
	writeGenJournal(b, path, 20_000, 5)
	j, _ := Open(path)
	b.ReportAllocs()
	for b.Loop() {
		if recs, _, err := j.RecordsSkipped(); err != nil || len(recs) != 20_000 {
			b.Fatal(len(recs), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/line")
}

// BenchmarkIndexBuild: the first read with no index file, which writes it.
func BenchmarkIndexBuild(b *testing.B) {
	path := filepath.Join(b.TempDir(), "journal.jsonl")
	writeGenJournal(b, path, 20_000, 5)
	b.ReportAllocs()
	for b.Loop() {
		os.Remove(IndexPath(path))
		j, _ := Open(path)
		if recs, _, err := j.UnfinishedRecords(genOwner); err != nil || len(recs) != 5 {
			b.Fatal(len(recs), err)
		}
	}
}

func BenchmarkUnfinishedRecords(b *testing.B) {
	for _, size := range benchSizes {
		path := benchJournal(b, size.withdrawals)
		b.Run(size.name+"/new-process", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j, _ := Open(path)
				if recs, _, err := j.UnfinishedRecords(genOwner); err != nil || len(recs) != 5 {
					b.Fatal(len(recs), err)
				}
			}
		})
		b.Run(size.name+"/same-journal", func(b *testing.B) {
			j, _ := Open(path)
			j.UnfinishedRecords(genOwner)
			b.ReportAllocs()
			for b.Loop() {
				if recs, _, err := j.UnfinishedRecords(genOwner); err != nil || len(recs) != 5 {
					b.Fatal(len(recs), err)
				}
			}
		})
	}
}

// BenchmarkRepeatRecords: the repeat check's read (`withdraw --dry-run`)
// in a new process: the unfinished withdrawals and those that ended
// FAILED since a day, picked from the index, costs what
// BenchmarkUnfinishedRecords does.
func BenchmarkRepeatRecords(b *testing.B) {
	for _, size := range benchSizes {
		path := benchJournal(b, size.withdrawals)
		b.Run(size.name+"/new-process", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j, _ := Open(path)
				if recs, _, err := j.RepeatRecords(genOwner, genT0.Add(time.Second)); err != nil || len(recs) != 5 {
					b.Fatal(len(recs), err)
				}
			}
		})
	}
}

// BenchmarkRecordsOf: `status ID` of a finished withdrawal in a new process.
func BenchmarkRecordsOf(b *testing.B) {
	for _, size := range benchSizes {
		path := benchJournal(b, size.withdrawals)
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j, _ := Open(path)
				if recs, err := j.RecordsOf(genOwner, genQuoteID(7)); err != nil || len(recs) != 1 || !recs[0].Finished() {
					b.Fatal(recs, err)
				}
			}
		})
	}
}

// BenchmarkAppendState: a follower's answer, already journaled (nothing is
// written: the cost is the read), the index primed outside the loop.
func BenchmarkAppendState(b *testing.B) {
	for _, size := range benchSizes {
		path := benchJournal(b, size.withdrawals)
		b.Run(size.name, func(b *testing.B) {
			j, _ := Open(path)
			state := func(i int) Entry {
				return Entry{Time: genT0, Kind: KindState, Env: "production", AccountID: "acct-1", QuoteID: genQuoteID(i % size.withdrawals), State: exchange.StateSending}
			}
			if err := j.AppendState(state(0)); err != nil {
				b.Fatal(err)
			}
			before, _ := os.Stat(path)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if err := j.AppendState(state(i)); err != nil {
					b.Fatal(err)
				}
			}
			if after, _ := os.Stat(path); after.Size() != before.Size() {
				b.Fatalf("the journal grew by %d bytes: a state already journaled was written again", after.Size()-before.Size())
			}
		})
	}
}

// BenchmarkRecent: the destination form's recent destinations (the last
// 500 withdrawals of the account, withdrawal.RecentWithdrawals), read back
// from the end,
// in a new process and in the console's Journal; its cost is what it
// returns, where Records (the form's read before) is the whole journal.
func BenchmarkRecent(b *testing.B) {
	for _, size := range benchSizes {
		path := benchJournal(b, size.withdrawals)
		b.Run(size.name+"/new-process", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j, _ := Open(path)
				if recs, err := j.Recent(genOwner, 500); err != nil || len(recs) != 500 {
					b.Fatal(len(recs), err)
				}
			}
		})
		b.Run(size.name+"/same-journal", func(b *testing.B) {
			j, _ := Open(path)
			j.Recent(genOwner, 500)
			b.ReportAllocs()
			for b.Loop() {
				if recs, err := j.Recent(genOwner, 500); err != nil || len(recs) != 500 {
					b.Fatal(len(recs), err)
				}
			}
		})
	}
}

// BenchmarkHistory: `history` of the environment, every withdrawal read
// and folded through the index as it is listed, in a new process (the
// index file loaded); the memory it holds is the index's, not the
// records'.
func BenchmarkHistory(b *testing.B) {
	for _, size := range benchSizes {
		path := benchJournal(b, size.withdrawals)
		b.Run(size.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j, _ := Open(path)
				n := 0
				err := j.History(ListOptions{Env: "production"}, func(Listing) error { return nil }, func(Record) error { n++; return nil })
				if err != nil || n != size.withdrawals {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(5*size.withdrawals), "ns/line")
		})
	}
}

// BenchmarkCheckRead: what the guard of a send adds to read the journal
// as it is, every byte of 20,000 withdrawals (checkRead).
func BenchmarkCheckRead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "journal.jsonl")
	writeGenJournal(b, path, 20_000, 5)
	j, _ := Open(path)
	fi, _ := os.Stat(path)
	for b.Loop() {
		if err := j.checkRead(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/1e6, "MB")
}
