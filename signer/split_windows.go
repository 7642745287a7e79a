package signer

import (
	"errors"
	"strings"

	"golang.org/x/sys/windows"
)

// systemWords is line as Windows itself splits a command line
// (CommandLineToArgvW), given the words splitWindows read from it, which
// checked it first: an empty line, no program, a quote never closed or ""
// inside quotes are refused there. Line ends, blanks to svcwallet (a
// command written over lines in the config), are spaces here; a line
// Windows reads otherwise than svcwallet would is refused.
func systemWords(line string, ours []string) ([]string, error) {
	line = strings.TrimLeft(strings.NewReplacer("\r", " ", "\n", " ").Replace(line), " \t")
	words, err := windows.DecomposeCommandLine(line)
	if err != nil {
		return nil, err
	}
	if len(words) != len(ours) {
		return nil, errors.New("Windows splits this command into other words than svcwallet reads: quote each word that holds a space")
	}
	for i := range words {
		if words[i] != ours[i] {
			return nil, errors.New("Windows reads this command's words otherwise than svcwallet does: quote each word that holds a space or a quote")
		}
	}
	return words, nil
}
