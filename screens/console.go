package screens

import (
	"svcwallet/screens/builder"
	"svcwallet/screens/deposit"
	"svcwallet/screens/home"
	"svcwallet/screens/kit"
	"svcwallet/screens/login"
	"svcwallet/screens/status"
	"svcwallet/screens/withdraw"
	"svcwallet/tui"
)

// Console starts the console on app: the top bar reads app's session
// from now on, the features open one another through app's Makers, and the
// first screen is the login.
func Console(app *kit.App) tui.Screen {
	app.Common.TopBar = app.TopBar
	app.Makers = kit.Makers{
		Home: home.New, Login: login.New, Deposit: deposit.New, Withdraw: withdraw.New,
		History: status.NewHistory, Board: status.NewBoard, Builder: builder.New,
		Status: status.New, Resume: status.NewResume,
	}
	return login.New(app)
}
