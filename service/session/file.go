package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
)

// record is one environment's line of the session file: where its session
// is kept, and the session itself when that is the file.
type record struct {
	Where   Where           `json:"where"`
	Session json.RawMessage `json:"session,omitempty"`
}

// readFile is the session file's records by environment name; none when
// there is no file. A file others could change, a link, or one not of the
// file's shape (config.ReadState, strictly) is an *UnreadableError.
func (s Store) readFile() (map[string]record, error) {
	records := map[string]record{}
	if s.File == "" {
		return records, nil
	}
	err := config.ReadState(s.File, &records)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return map[string]record{}, nil
	case err != nil:
		return nil, &UnreadableError{Where: InFile, Reason: err}
	}
	for name := range records {
		if !config.IsEnvName(name) {
			return nil, &UnreadableError{Where: InFile, Reason: errors.New("the session file names an environment no config could")}
		}
	}
	return records, nil
}

// locked runs change holding the session file's lock (FILE.lock, beside
// it): change reads the file and writes it back, and another process's
// write between the two (a login to another environment, a new session
// where a refused one was) would be lost.
func (s Store) locked(change func() error) error {
	if s.File == "" {
		return change()
	}
	unlock, err := osguard.LockBeside(s.File, osguard.Wait{Doing: "keeping a session in " + safetext.Shown(s.File)})
	if err != nil {
		return fmt.Errorf("session file %w", err)
	}
	defer unlock()
	return change()
}

// writeRecord puts env's record in the file, replaced atomically, 0600,
// in the private state folder; an unreadable file (not one others could
// change) is replaced.
func (s Store) writeRecord(env string, rec record) error {
	if s.File == "" {
		return errors.New("no state folder for the session file")
	}
	records, err := s.readFile()
	if err != nil {
		if errors.As(err, new(*osguard.UnsafePathError)) {
			return err
		}
		// Replaced, its records go: what the store keeps for the others
		// it names would stay there unlisted, unused and unforgettable.
		for _, name := range s.namedIn() {
			if name != env {
				s.forgetKeyring(name)
			}
		}
		records = map[string]record{}
	}
	records[env] = rec
	return s.writeFile(records)
}

// namedIn is the environments a session file that cannot be read names,
// as far as it reads as JSON at all (another version's shape, an edit):
// its top-level keys, read as a stream up to maxNamesRead, so a file too
// large to be read whole (past 1 MiB, refused so) still has what it names
// in the credential store forgotten with it.
func (s Store) namedIn() []string {
	f, err := osguard.OpenPrivate(s.File, os.O_RDONLY)
	if err != nil {
		return nil
	}
	defer f.Close()
	d := json.NewDecoder(io.LimitReader(f, maxNamesRead))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var names []string
	for d.More() {
		t, err := d.Token()
		name, ok := t.(string)
		if err != nil || !ok {
			break
		}
		if config.IsEnvName(name) {
			names = append(names, name)
		}
		if skipValue(d) != nil {
			break
		}
	}
	return names
}

// skipValue reads past the JSON value d is at, token by token: nothing of
// it is kept.
func skipValue(d *json.Decoder) error {
	depth := 0
	for {
		t, err := d.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// maxNamesRead bounds the session file read for its names.
const maxNamesRead = 64 << 20

// removeRecord takes env's record out of the file, if it holds one.
func (s Store) removeRecord(env string) error {
	records, err := s.readFile()
	if err != nil {
		return err
	}
	if _, ok := records[env]; !ok {
		return nil
	}
	delete(records, env)
	return s.writeFile(records)
}

func (s Store) writeFile(records map[string]record) error {
	if err := osguard.MkdirPrivate(filepath.Dir(s.File)); err != nil {
		return err
	}
	return config.WriteState(s.File, records)
}
