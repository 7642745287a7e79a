//go:build windows

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// enableEscapes turns on a Windows console's escape sequences for help's
// colours; false (plain help) when the console refuses.
func enableEscapes(out io.Writer) bool {
	f, ok := out.(*os.File)
	if !ok {
		return false
	}
	var mode uint32
	h := windows.Handle(f.Fd())
	if windows.GetConsoleMode(h, &mode) != nil {
		return false
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
