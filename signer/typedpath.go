package signer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
)

// ExpandHome turns a leading "~/" (or a lone "~") of a keystore path typed
// at a prompt or into a form, not a shell, into the home directory, as a
// shell would. Its error repeats the path as typed text is
// (safetext.ShownTyped).
func ExpandHome(path string) (string, error) {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot expand ~ in %s (%v): type the full path", safetext.ShownTyped(path), err)
	}
	return filepath.Join(home, strings.TrimPrefix(path[1:], "/")), nil
}
