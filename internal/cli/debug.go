package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/journal"
)

// debugVar turns on the debug log like --debug.
const debugVar = "SVCWALLET_DEBUG"

// debugLogFile is the console's debug log, in the state directory.
const debugLogFile = "debug.log"

// debugLogger writes requests, answers' statuses and timings (never a secret:
// the service logs none) as text lines.
func debugLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// consoleDebugLog opens the console's debug log in the state directory (the
// screen is the console's, so the log cannot go to stderr), refusing a link
// or a file others could change (osguard.OpenPrivate). The caller closes it.
func consoleDebugLog() (*slog.Logger, string, func(), error) {
	path := filepath.Join(filepath.Dir(journal.DefaultPath()), debugLogFile)
	if err := osguard.MkdirPrivate(filepath.Dir(path)); err != nil {
		return nil, path, nil, fmt.Errorf("cannot make the state directory for the debug log: %w", err)
	}
	f, err := osguard.OpenPrivate(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return nil, path, nil, fmt.Errorf("cannot open the debug log: %w", err)
	}
	return debugLogger(f), path, func() { f.Close() }, nil
}
