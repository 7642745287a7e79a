package deposit

import (
	"testing"

	"github.com/svcwallet/svcwallet/screens/screentest"
	"github.com/svcwallet/svcwallet/service/sandbox"
)

// TestQREnterOfferedOnlyWhereItFits: the footer offers enter for the QR
// code exactly where pressing it draws the code; at 60x20 (18 rows here)
// it offered the code, then said it needed 2 more rows.
func TestQREnterOfferedOnlyWhereItFits(t *testing.T) {
	for _, size := range [][2]int{{60, 18}, {60, 19}, {60, 20}, {80, 22}, {120, 38}, {38, 40}, {39, 40}} {
		d, _ := loadedDeposit(t, size[0], size[1], sandbox.Options{})
		offered := screentest.Offers(d.KeyMap(), "enter")
		d.Update(screentest.Key("enter"))
		l, _ := d.layout()
		if drawn := l == qrBelow || l == qrAlone; offered != drawn {
			t.Errorf("at %dx%d enter offered %v, and pressed, the code drawn %v", size[0], size[1], offered, drawn)
		}
	}
}
