//go:build unix

package board

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/sandbox"
	"github.com/svcwallet/svcwallet/service/target"
	"github.com/svcwallet/svcwallet/tui"
)

// BenchmarkBoardVsPoller (issue 35 item 2: at most 2× the poller): the
// console's whole work for one answer of a board of 10,000 moving ids,
// against a minimal poller's (minimalPoller: ask, decode), both over
// loopback HTTP to one sandbox, taken in turn so that a busy machine
// weighs on both alike, each measured in the process's CPU time (the
// sandbox's share of each request is in both). The board's: the tick through the root that hands
// a span of ids out, their requests through the client (checks included), the
// answers through the root, its saves every 2 s, and a frame drawn after
// each message, as Bubble Tea does; not the terminal's write of the cells
// that changed. It reports each one's time per answer and their ratio.
func BenchmarkBoardVsPoller(b *testing.B) {
	clock := exchangetest.NewFakeClock(screentest.RigStart)
	ex := sandbox.New(sandbox.Options{Now: clock.Now, Settle: 24 * time.Hour})
	srv := httptest.NewServer(ex)
	b.Cleanup(srv.Close)
	env := config.SandboxEnvironment(srv.URL, sandbox.DefaultChainID)
	client := exchange.New(env, exchange.Options{Now: clock.Now})
	if _, err := client.Login(context.Background(), exchange.APIKey(sandbox.DemoAPIKey)); err != nil {
		b.Fatal(err)
	}
	app := &kit.App{Deps: kit.Deps{Common: tui.NewCommon(true, clock.Now), Getenv: func(string) string { return "" }},
		Session: kit.Session{Target: target.Target{Env: env, Client: client}}}
	screentest.OpenJournal(b, app)
	ids := make([]string, 10_000)
	for i := range ids {
		id, err := ex.SeedWithdrawal(sandbox.DemoAccountID, sandbox.DestCompleted, "ARBITRUM", "10")
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	l := newLoop(app, clock, 0)
	l.at(clock.Now(), tea.PasteMsg{Content: strings.Join(ids, "\n")})
	for l.until(clock.Now().Add(time.Minute)); l.b.tally.unasked > 0; {
		l.until(clock.Now().Add(time.Minute))
	}
	p, err := newMinimalPoller(srv.URL, sandbox.DemoAPIKey, &http.Client{})
	if err != nil {
		b.Fatal(err)
	}
	var board, poller time.Duration
	answers := 0
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		// The board takes a span's answers together (about five): the
		// poller asks as many.
		asked := len(l.order)
		start := cpuTime(b)
		pprof.Do(context.Background(), pprof.Labels("part", "board"), func(context.Context) {
			for len(l.order) == asked {
				l.until(clock.Now().Add(l.b.sched.Gap))
			}
		})
		board += cpuTime(b) - start
		start = cpuTime(b)
		for range len(l.order) - asked {
			if _, err := p.ask(context.Background(), ids[answers%len(ids)]); err != nil {
				b.Fatal(err)
			}
			answers++
		}
		poller += cpuTime(b) - start
	}
	b.ReportMetric(float64(board.Nanoseconds())/float64(answers), "board-ns/answer")
	b.ReportMetric(float64(poller.Nanoseconds())/float64(answers), "poller-ns/answer")
	b.ReportMetric(float64(board)/float64(poller), "board/poller")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
