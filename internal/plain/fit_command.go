package plain

import (
	"slices"
	"strings"
)

// Subcommands are the words each command may be followed by (cobra's
// Use: a subcommand, with the argument it takes), help's the topics and
// commands it tells of (the command line's test holds them to its
// commands): "svcwallet key list shows it" runs key list, and "shows it"
// is the sentence's.
var Subcommands = map[string][]string{
	"auth":       {"login", "logout", "status"},
	"builder":    {"authorize", "submit FILE"},
	"completion": {"bash", "fish", "powershell", "zsh"},
	"deposit":    {"generate CHAIN"},
	"env":        {"add NAME", "list", "remove NAME", "use NAME"},
	"help":       append([]string{"checks", "environments", "exit-status", "keys", "offline"}, Commands...),
	"key":        {"import", "list", "new"},
	"withdraw":   {"resume QUOTE_ID", "submit FILE"},
}

// Switches are the flags, long and short, that take no value (held to
// the command line's by its test): the word after one is the command's
// only if it is an argument's shape; after another flag it is its value.
var Switches = []string{"accept-journal", "alias", "all", "allow-repeat", "csv", "debug", "dry-run", "h", "help", "insecure-storage", "json", "plain", "public", "refresh", "seeding", "wait", "wallet", "watch", "with-api-key", "yes"}

// commandEnd is where the command to run that begins s ends: where its
// arguments end (argument), the words after it the sentence's; never
// past a ")", ";" or ", " outside single quotes (stepEnd). Glued to its
// step's end, "run svcwallet sandbox and name it with env add" was one
// word wider than the terminal, split mid-word. Foundry's runs to its
// step's end.
func commandEnd(s string) int {
	s = s[:stepEnd(s)]
	words := shellWords(s)
	if !strings.HasPrefix(s, "svcwallet ") || len(words) < 2 {
		return len(s)
	}
	end := words[1][1]
	subs, slot, value := Subcommands[s[words[1][0]:end]], "", false
	for i, w := range words[1:] {
		word := s[w[0]:w[1]]
		stop := strings.HasSuffix(word, ":") || strings.HasSuffix(word, ".") && !strings.HasSuffix(word, "..")
		if stop { // the sentence goes on after its stop
			word = word[:len(word)-1]
		}
		if i > 0 {
			sub, arg, _ := strings.Cut(subUse(subs, word, i == 1)+" ", " ")
			switch {
			case value || slot == "NAME" || sub != "": // an environment's name is a plain word
				value, slot = false, strings.TrimSpace(arg)
			case strings.HasPrefix(word, "-"):
				name, _, given := strings.Cut(strings.TrimLeft(word, "-"), "=")
				value = !given && name != "" && !slices.Contains(Switches, name)
			case strings.Trim(word, "<>|&12") == "" && strings.TrimRight(word, "<>|") != word:
				// A pipe or redirection that ends in its operator: its
				// operand follows ("2>&1" has it; "&&", "1" are not one).
				value = true
			case argument(word):
				slot = ""
			default:
				return end
			}
		}
		if end = w[1]; stop {
			return end
		}
	}
	return end
}

// subUse is the Use in subs of the subcommand word, when first (the word
// after the command's name).
func subUse(subs []string, word string, first bool) string {
	for _, u := range subs {
		if first && strings.Fields(u)[0] == word {
			return u
		}
	}
	return ""
}

// argument is whether word has an argument's shape, not a sentence's: a
// quoted word, an id or token (a digit, a dash), a path, a placeholder or
// chain in capitals (QUOTE_ID, ARBITRUM), an elision (…).
func argument(word string) bool {
	if strings.ContainsAny(word, "0123456789'\"/.:=_-~$@*…\\<>") {
		return true
	}
	return len(word) > 1 && strings.ToUpper(word) == word && strings.ToLower(word) != word
}

// shellWords are the start and end of each word of s, split at spaces
// outside quotes and not escaped ('it'\”s.json' is one word).
func shellWords(s string) [][2]int {
	var words [][2]int
	var quote byte
	at := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || quote == 0 && s[i] == ' ' {
			if at >= 0 {
				words = append(words, [2]int{at, i})
			}
			at = -1
			continue
		}
		if at < 0 {
			at = i
		}
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\\' && i+1 < len(s):
			i++
		case c == '\'' || c == '"':
			quote = c
		}
	}
	return words
}

// stepEnd is where the step that begins s ends: at a ")", ";" or ", "
// outside single quotes (a word of a command holds none unquoted:
// safetext.ShellWord), or s's end.
func stepEnd(s string) int {
	quoted := false
	for i, r := range s {
		switch {
		case r == '\'':
			quoted = !quoted
		case quoted:
		case r == ')' || r == ';' || strings.HasPrefix(s[i:], ", "):
			return i
		}
	}
	return len(s)
}
