//go:build !windows

package cli

import "io"

// enableEscapes: every other terminal reads escape sequences as they come.
func enableEscapes(io.Writer) bool { return true }
