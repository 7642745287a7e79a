package deposit

import (
	"testing"

	"svcwallet/screens/screentest"
	"svcwallet/service/sandbox"
)

func BenchmarkScreenDeposit(b *testing.B) {
	d, _ := loadedDeposit(b, 120, 38, sandbox.Options{})
	screentest.BenchView(b, d)
}

func BenchmarkScreenDeposit1000(b *testing.B) {
	d, _ := loadedDeposit(b, 120, 38, sandbox.Options{ExtraChains: 1000})
	d.cursor = 503
	d.scroll()
	screentest.BenchView(b, d)
}
