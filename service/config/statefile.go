package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// ErrNotState is a state file whose content is not svcwallet's (ReadState).
var ErrNotState = errors.New("not svcwallet's state file")

// maxStateFile bounds what is read of a small state file: a larger one is
// not svcwallet's.
const maxStateFile = 1 << 20

// ReadState reads the private state file at path (osguard.ReadStateFileAtMost:
// no link followed, another user's refused) as the JSON of v, strictly:
// one object, no field v lacks nor any named twice (safetext.RepeatedKey,
// as an answer is held to), at most 1 MiB, else ErrNotState. A missing
// file is an os.ErrNotExist error; a file that cannot be read, its own. What v holds is still the caller's to
// shape-check: the file is read back as an answer is.
func ReadState(path string, v any) error {
	b, err := osguard.ReadStateFileAtMost(path, maxStateFile)
	if tl := new(osguard.TooLargeError); errors.As(err, &tl) {
		return fmt.Errorf("%w: %v, more than one of svcwallet's", ErrNotState, err)
	}
	if err != nil {
		return err
	}
	if name, repeated := safetext.RepeatedKey(b); repeated {
		return fmt.Errorf("%w: %s names the field %q twice", ErrNotState, safetext.Shown(path), safetext.Line(name, safetext.MaxNameLen))
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrNotState, safetext.Shown(path), err)
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: %s holds more than one value", ErrNotState, safetext.Shown(path))
	}
	return nil
}

// WriteState replaces the private state file at path with v's JSON, 0600
// and atomically (osguard.WriteStateFile).
func WriteState(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return osguard.WriteStateFile(path, append(b, '\n'))
}
