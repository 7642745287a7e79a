package runnext

import (
	"errors"

	"github.com/svcwallet/svcwallet/internal/osguard"
)

// ThenMend is the step after err's own fix when that fix names no command
// (osguard.RenameFirst: a file refused for its name): the doctor run, on
// environment env of config, that names the command that mends the file
// once renamed; "" for any other error. The command line's errors and the
// console's say it one way.
func ThenMend(config, env string, err error) string {
	if u, ok := errors.AsType[*osguard.UnsafePathError](err); ok && u.Fix == osguard.RenameFirst {
		return "; then run " + Command(config, env, "doctor") + " for the command that mends it"
	}
	return ""
}
