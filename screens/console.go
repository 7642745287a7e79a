package screens

import (
	"svcwallet/screens/kit"
	"svcwallet/tui"
)

// Console starts the console on app: the status bar reads app's session
// from now on, and the first screen is the login.
func Console(app *kit.App) tui.Screen {
	app.Common.Status = app.Status
	return newLogin(app)
}
