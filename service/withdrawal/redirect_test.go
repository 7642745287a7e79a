package withdrawal_test

import (
	"net/http"
	"testing"
)

// TestRedirectIsNotARefusal: a withdraw answered with a redirect (3xx),
// which the interface gives no meaning, says nothing of whether it
// executed: a 303 See Other is how a service says "done, look there"
// after a POST. It is lost, the repeat guard holding, never journaled
// REFUSED, whereupon the same withdrawal signed again would pay twice.
// Here the service executes the request, and the settle finds it arrived.
func TestRedirectIsNotARefusal(t *testing.T) {
	for _, status := range []int{http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			quoteUsedIsLost(t, status, `{"message":"see the withdrawal's status"}`)
		})
	}
}
