package signer

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/exchangetest"
)

// TestClefFollowsNoRedirect (issue 25 item 7): clef's endpoint answering
// with a redirect gets one clean refusal, and the host it names is never
// asked: neither the listing nor the typed data leave for it, whatever the
// redirect's kind.
func TestClefFollowsNoRedirect(t *testing.T) {
	elsewhere := exchangetest.NewFakeClef(t)
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect, http.StatusFound, http.StatusMovedPermanently} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, elsewhere.URL, code)
			}))
			defer redirect.Close()
			_, err := Opening{}.Open(context.Background(), Source{Kind: SourceClef, Endpoint: redirect.URL})
			var se *SourceError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "to "+elsewhere.URL+": svcwallet follows no redirect for a signer") {
				t.Errorf("listing: %v", err)
			}
			_, err = Sign(context.Background(), NewClef(redirect.URL, 0).Key(demoAddr), testDomain, demoTransfer())
			if !errors.As(err, &se) || !strings.Contains(err.Error(), "follows no redirect") {
				t.Errorf("signing: %v", err)
			}
			if calls := elsewhere.Calls(); len(calls) != 0 || len(elsewhere.Signed()) != 0 {
				t.Fatalf("the redirect's target was asked %v", calls)
			}
		})
	}
}

// TestClefManyAccounts (issue 25 item 7): a clef holding 20,001 accounts
// makes an error that lists a few and says how many more, not one of
// hundreds of kilobytes.
func TestClefManyAccounts(t *testing.T) {
	f := exchangetest.NewFakeClef(t)
	f.Accounts = make([]common.Address, 20001)
	for i := range f.Accounts {
		f.Accounts[i][0], f.Accounts[i][1], f.Accounts[i][19] = byte(i>>8), byte(i), 1
	}
	_, err := Opening{}.Open(context.Background(), Source{Kind: SourceClef, Endpoint: f.URL})
	if !errors.Is(err, ErrNeedAccount) || len(err.Error()) > 500 ||
		!strings.Contains(err.Error(), "holds 20001 accounts ("+f.Accounts[0].Hex()+", ") || !strings.Contains(err.Error(), f.Accounts[maxListed-1].Hex()+", and 19996 more)") {
		t.Fatalf("%d bytes: %.600v", len(err.Error()), err)
	}
}
