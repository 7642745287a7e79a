package screens

import (
	"svcwallet/screens/home"
	"svcwallet/screens/kit"
	"svcwallet/screens/login"
	"svcwallet/tui"
)

// Console starts the console on app: the status bar reads app's session
// from now on, the features find home through app's Makers, and the first
// screen is the login.
func Console(app *kit.App) tui.Screen {
	app.Common.Status = app.Status
	app.Makers = kit.Makers{Home: home.New}
	return login.New(app)
}
