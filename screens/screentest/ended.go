package screentest

import (
	"net/http"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/tui"
)

// SessionEnded is the error of a request whose session the service
// ended, with no credential to renew it.
func SessionEnded() error {
	return &exchange.SessionEndedError{Env: "sandbox", Cause: &exchange.APIError{Status: http.StatusUnauthorized, Code: exchange.CodeNotAuthenticated}}
}

// ToLogin runs cmd and reports whether it resets the console to the login
// (kit.App.SessionEnded) saying says; pushing a screen fails the test.
func ToLogin(t *testing.T, cmd tea.Cmd, says string) (login, said bool) {
	t.Helper()
	for _, m := range RunCmdSync(t, cmd) {
		switch m := m.(type) {
		case tui.ResetToMsg:
			login = true
		case tui.ErrorMsg:
			said = said || strings.Contains(m.Err.Error(), says)
		case tui.PushMsg:
			t.Errorf("pushed %T", m.Screen)
		}
	}
	return login, said
}
