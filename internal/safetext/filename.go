package safetext

import (
	"path/filepath"
	"strings"
)

// FileName is name (a file's name, no directory) made one every system
// writes as named: cleaned (Text: no control); each character Windows
// refuses in a name (<>:"/\|?*) as '_', since a ':' there writes an
// alternate data stream instead; no trailing dot or space, which Windows drops, naming
// another file; and a leading '_' on a device name Windows reserves (CON,
// NUL, COM1…), which names the device whatever follows its dot. For names
// svcwallet suggests that hold outside text (an environment's, a quote id).
func FileName(name string) string {
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`<>:"/\|?*`, r) {
			return '_'
		}
		return r
	}, Text(name))
	name = strings.TrimRight(name, ". ")
	stem, _, _ := strings.Cut(name, ".")
	if reservedDevice(strings.TrimRight(stem, " ")) {
		name = "_" + name
	}
	if name == "" {
		return "_"
	}
	return name
}

// reservedDevice reports whether stem is a device name Windows reserves,
// in any case.
func reservedDevice(stem string) bool {
	switch s := strings.ToUpper(stem); s {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	default:
		return len(s) == 4 && (s[:3] == "COM" || s[:3] == "LPT") && s[3] >= '0' && s[3] <= '9' ||
			len(s) == 5 && (s[:3] == "COM" || s[:3] == "LPT") && (s[3:] == "¹" || s[3:] == "²" || s[3:] == "³")
	}
}

// OperandPath is path as an operand no program reads as an option: ./path
// when it begins with '-' (a --out of -x.json), which cast and most
// programs would take for flags.
func OperandPath(path string) string {
	if strings.HasPrefix(path, "-") {
		return "." + string(filepath.Separator) + path
	}
	return path
}
