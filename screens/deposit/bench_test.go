package deposit

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

func BenchmarkScreenDeposit(b *testing.B) {
	d, _ := loadedDeposit(b, 120, 38, sandbox.Options{})
	screentest.BenchView(b, d)
}

func BenchmarkScreenDeposit1000(b *testing.B) {
	d, _ := loadedDeposit(b, 120, 38, sandbox.Options{ExtraChains: 1000})
	for range 503 {
		d.Update(screentest.Key("down"))
	}
	screentest.BenchView(b, d)
}
