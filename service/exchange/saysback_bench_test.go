package exchange

import (
	"strings"
	"testing"
	"time"
)

// statusBody is one withdrawal-status answer, as the watch board reads one
// an id (10,000 of them a round).
var statusBody = []byte(`{"quote_id":"q-0123456789abcdef0123456789abcdef","tx_id":"tx-42","state":"COMPLETED","chain":"ARBITRUM","token_out":"USDT","pay_amount":"100.5","receive_amount":"100.1","fee":"0.4","destination":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","withdraw_tx_hash":"0x8f3c1d2e4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4","created_at":"2026-11-30T03:00:00Z","updated_at":"2026-11-30T03:01:00Z"}`)

// BenchmarkStatusDecode is what reading the answer costs without the look
// for a credential said back, to hold BenchmarkSaysBack against.
func BenchmarkStatusDecode(b *testing.B) {
	for b.Loop() {
		var w Withdrawal
		if err := Decode(statusBody, &w); err != nil {
			b.Fatal(err)
		}
		if err := w.cleanAnswer(time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaysBack looks through the answer for the demo key and a
// cookie, and for a key of 64 characters, whose 53 runs are each looked for.
func BenchmarkSaysBack(b *testing.B) {
	var w Withdrawal
	if err := Decode(statusBody, &w); err != nil {
		b.Fatal(err)
	}
	const cookie = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	for name, secrets := range map[string][]string{
		"demo key":    {"sandbox-demo-key", cookie},
		"64-char key": {"f3a9c1e07b2d4c68a5e1f09b3c7d2e4a6b8c0d1e2f3a4b5c6d7e8f9a0b1c2d3e", cookie},
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := refuseSaidBack(&w, credentials(secrets)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// hugeCookie is a cookie of 4 KiB (the most a kept session holds) and
// hugeText an answer's 1 MiB of text: runs of 11 of the cookie's
// characters, each of them nearly a run that is masked, everywhere.
var (
	hugeCookie = strings.Repeat("0123456789ABCDEFGHIJKLMNOPQRSTUV", 128)
	hugeText   = strings.Repeat("0123456789a-", 1<<20/12)
)

// BenchmarkSaysBackHuge is the most a hostile service can ask of the look
// through an answer.
func BenchmarkSaysBackHuge(b *testing.B) {
	answer := struct{ Text string }{hugeText}
	for b.Loop() {
		if err := refuseSaidBack(&answer, credentials([]string{hugeCookie, "sandbox-demo-key"})); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMaskHuge is the most it can ask of the mask, with an error's
// message of 1 MiB.
func BenchmarkMaskHuge(b *testing.B) {
	for b.Loop() {
		if maskSecrets(hugeText, credentials([]string{hugeCookie, "sandbox-demo-key"})) != hugeText {
			b.Fatal("masked")
		}
	}
}

// BenchmarkMaskError is the mask of one error's message with a cookie of
// 4 KiB, as a round of errors on the board pays it for each: with the
// credentials prepared once (Client.prepared) and prepared anew.
func BenchmarkMaskError(b *testing.B) {
	const msg = "the withdrawal is not known: ask again later"
	secrets := []string{hugeCookie, "sandbox-demo-key"}
	b.Run("prepared", func(b *testing.B) {
		var p preparedCredentials
		for b.Loop() {
			if maskSecrets(msg, p.of(secrets)) != msg {
				b.Fatal("masked")
			}
		}
	})
	b.Run("anew", func(b *testing.B) {
		for b.Loop() {
			if maskSecrets(msg, credentials(secrets)) != msg {
				b.Fatal("masked")
			}
		}
	})
}
