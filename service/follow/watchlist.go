package follow

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"svcwallet/clean"
	"svcwallet/service"
	"svcwallet/service/config"
)

// WatchlistFile is the name of the watch board's file in the state
// directory, next to the journal.
const WatchlistFile = "watchboard.json"

// watchlist is the file's content: the board's quote ids per environment.
type watchlist struct {
	Envs map[string][]string `json:"envs"`
}

// ParseQuoteIDs splits text on spaces, commas and newlines into quote ids,
// duplicates merged in first-seen order; those of the wrong shape are
// returned apart, cleaned and shortened (Quoted), so they can be said
// instead of followed.
func ParseQuoteIDs(text string) (ids, malformed []string) {
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	}) {
		if seen[f] {
			continue
		}
		seen[f] = true
		if service.CheckQuoteID(f) != nil {
			malformed = append(malformed, clean.Quoted(clean.Text(f)))
			continue
		}
		ids = append(ids, f)
	}
	return ids, malformed
}

// LoadWatchlist reads the ids kept for env at path; a missing file is an
// empty board. Ids of the wrong shape (a hand-edited file) are dropped.
func LoadWatchlist(path, env string) ([]string, error) {
	wl, err := readWatchlist(path)
	if err != nil {
		return nil, err
	}
	ids, _ := ParseQuoteIDs(strings.Join(wl.Envs[env], "\n"))
	return ids, nil
}

// SaveWatchlist keeps ids for env at path (0600, replaced atomically),
// leaving the other environments' ids as they are.
func SaveWatchlist(path, env string, ids []string) error {
	wl, err := readWatchlist(path)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		delete(wl.Envs, env)
	} else {
		wl.Envs[env] = ids
	}
	b, err := json.MarshalIndent(wl, "", "  ")
	if err != nil {
		return err
	}
	if err := config.WriteStateFile(path, append(b, '\n')); err != nil {
		return fmt.Errorf("watch board file: %w", err)
	}
	return nil
}

// AddToWatchlist adds ids to those kept for env, duplicates merged, and
// returns how many were new.
func AddToWatchlist(path, env string, ids []string) (int, error) {
	have, err := LoadWatchlist(path, env)
	if err != nil {
		return 0, err
	}
	merged, _ := ParseQuoteIDs(strings.Join(append(have, ids...), "\n"))
	if added := len(merged) - len(have); added > 0 {
		return added, SaveWatchlist(path, env, merged)
	}
	return 0, nil
}

func readWatchlist(path string) (watchlist, error) {
	wl := watchlist{Envs: map[string][]string{}}
	b, err := config.ReadStateFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return wl, nil
	case err != nil:
		return wl, fmt.Errorf("watch board file: %w", err)
	}
	if err := service.Decode(b, &wl); err != nil {
		return wl, fmt.Errorf("watch board file %s is not valid JSON: %w", path, err)
	}
	if wl.Envs == nil {
		wl.Envs = map[string][]string{}
	}
	return wl, nil
}
