package screens

import (
	"github.com/svcwallet/svcwallet/internal/screens/board"
	"github.com/svcwallet/svcwallet/internal/screens/builder"
	"github.com/svcwallet/svcwallet/internal/screens/deposit"
	"github.com/svcwallet/svcwallet/internal/screens/history"
	"github.com/svcwallet/svcwallet/internal/screens/home"
	"github.com/svcwallet/svcwallet/internal/screens/kit"
	"github.com/svcwallet/svcwallet/internal/screens/login"
	"github.com/svcwallet/svcwallet/internal/screens/status"
	"github.com/svcwallet/svcwallet/internal/screens/withdraw"
	"github.com/svcwallet/svcwallet/internal/tui"
)

// Console starts the console on app: the top bar reads app's session
// from now on, the features open one another through app's Makers, and the
// first screen is the login.
func Console(app *kit.App) tui.Screen {
	app.Common.TopBar = app.TopBar
	app.Makers = kit.Makers{
		Home: home.New, Login: login.New, Deposit: deposit.New, Withdraw: withdraw.New,
		History: history.New, Board: board.New, Builder: builder.New,
		Status: status.New, Resume: status.NewResume, BoardStatus: status.NewBoardStatus,
	}
	return login.New(app)
}
