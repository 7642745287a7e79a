package signer

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SplitCommand splits a signing command into words as the user's system
// reads a command line, without running one: a POSIX shell's quoting
// (splitPOSIX), or on Windows the rules its programs read their arguments
// by, where a backslash separates a path's folders: splitWindows refuses
// what those programs disagree on, then Windows' own reading gives the
// words (systemWords). No variable, glob, pipe or redirection is
// interpreted.
func SplitCommand(line string) ([]string, error) {
	if runtime.GOOS == "windows" {
		words, err := splitWindows(line)
		if err != nil {
			return nil, err
		}
		return systemWords(line, words)
	}
	return splitPOSIX(line)
}

// isBlank separates words on every system: a space or a tab, and a line
// end (a command written over lines in the config).
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// invisibleCharacter names the first control or invisible character of a
// command line or key source, blanks between words aside: none needs one,
// and said back ("waiting for clef at …") a bidi override reorders its line.
func invisibleCharacter(s string) error {
	pos := 0
	for _, r := range s {
		pos++
		if !unicode.IsPrint(r) && !(r < utf8.RuneSelf && isBlank(byte(r))) || r == utf8.RuneError {
			return fmt.Errorf("it holds U+%04X at position %d, a control or invisible character: remove it", r, pos)
		}
	}
	return nil
}

// splitPOSIX splits line as a shell splits a simple command: words are
// separated by blanks; '…' keeps everything inside as it is, "…" keeps it
// too except that \ escapes " and \, and a \ outside quotes takes the next
// character as it is.
func splitPOSIX(line string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case isBlank(c):
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("a ' is not closed")
			}
			w.WriteString(line[i+1 : i+1+end])
			i, inWord = i+1+end, true
		case c == '"':
			i++
			for ; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				w.WriteByte(line[i])
			}
			if i >= len(line) {
				return nil, errors.New(`a " is not closed`)
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(line) {
				return nil, errors.New(`a \ ends the command`)
			}
			i++
			w.WriteByte(line[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	if len(words) == 0 {
		return nil, errors.New("the signing command is empty")
	}
	return words, nil
}

// splitWindows splits line by the rules CommandLineToArgvW and the C
// runtime read a Windows command line by. The program, the first word, is
// everything up to a blank, or everything between two "; a backslash in it
// is a path's. In the other words "…" keeps blanks, and backslashes are
// kept as they are except before a ": 2n of them then " are n backslashes
// and a quote that opens or closes, 2n+1 are n backslashes and a literal ".
// What the parsers disagree on ("" inside quotes) and a " never closed are
// refused rather than guessed; ' is an ordinary character.
func splitWindows(line string) ([]string, error) {
	prog, rest, err := windowsProgram(line)
	if err != nil {
		return nil, err
	}
	words := []string{prog}
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case isBlank(c) && !quoted:
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case c == '\\':
			n := 0
			for i < len(rest) && rest[i] == '\\' {
				n, i = n+1, i+1
			}
			if i == len(rest) || rest[i] != '"' {
				w.WriteString(strings.Repeat(`\`, n))
				i--
			} else {
				w.WriteString(strings.Repeat(`\`, n/2))
				if n%2 == 1 {
					w.WriteByte('"')
				} else {
					i--
				}
			}
			inWord = true
		case c == '"':
			if quoted && i+1 < len(rest) && rest[i+1] == '"' {
				return nil, errors.New(`"" inside quotes reads differently to different Windows programs: write \" for a quote`)
			}
			quoted, inWord = !quoted, true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, errors.New(`a " is not closed`)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// windowsProgram reads the program, the first word of a Windows command
// line, and returns it with the rest of the line.
func windowsProgram(line string) (prog, rest string, err error) {
	line = strings.TrimLeft(line, " \t\n\r")
	if line == "" {
		return "", "", errors.New("the signing command is empty")
	}
	if line[0] == '"' {
		end := strings.IndexByte(line[1:], '"')
		if end < 0 {
			return "", "", errors.New(`a " is not closed`)
		}
		prog, rest = line[1:1+end], line[2+end:]
		if rest != "" && !isBlank(rest[0]) {
			return "", "", errors.New(`the program's closing " must be followed by a space`)
		}
		if prog == "" {
			return "", "", errors.New("the signing command names no program")
		}
		return prog, rest, nil
	}
	end := strings.IndexFunc(line, func(r rune) bool { return r < 0x80 && isBlank(byte(r)) })
	if end < 0 {
		end = len(line)
	}
	prog, rest = line[:end], line[end:]
	if strings.Contains(prog, `"`) {
		return "", "", errors.New(`a " inside the program's name: put the whole path in quotes, "C:\Program Files\…\cast.exe"`)
	}
	return prog, rest, nil
}
