package screens

import (
	"github.com/svcwallet/svcwallet/screens/board"
	"github.com/svcwallet/svcwallet/screens/builder"
	"github.com/svcwallet/svcwallet/screens/deposit"
	"github.com/svcwallet/svcwallet/screens/history"
	"github.com/svcwallet/svcwallet/screens/home"
	"github.com/svcwallet/svcwallet/screens/kit"
	"github.com/svcwallet/svcwallet/screens/login"
	"github.com/svcwallet/svcwallet/screens/status"
	"github.com/svcwallet/svcwallet/screens/withdraw"
	"github.com/svcwallet/svcwallet/tui"
)

// Console starts the console on app: the top bar reads app's session
// from now on, the features open one another through app's Makers, and the
// first screen is the login, behind a notice of the journals an earlier
// svcwallet left beside the one in use (withEarlierNotice).
func Console(app *kit.App) tui.Screen {
	app.Common.TopBar = app.TopBar
	app.Common.ThenMend = app.ThenMend
	app.Makers = kit.Makers{
		Home: home.New, Login: login.NewWith, Deposit: deposit.New, Withdraw: withdraw.New,
		History: history.New, Board: board.New, Builder: builder.New,
		Status: status.New, Resume: status.NewResume, BoardStatus: status.NewBoardStatus,
	}
	// A session kept between runs (svcwallet auth login) opens on Home.
	if _, ok := app.Client().Session(); ok && app.Target.Kept {
		return withEarlierNotice(app, home.New(app))
	}
	return withEarlierNotice(app, login.New(app))
}
