package signer

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// keystoreFile is the file of the environment's keystore source that
// holds want's key, found without decrypting it (its passphrase is asked
// only when it signs): keystore:ADDRESS's file in the keystore folder, or
// the file at its path. err is a file that cannot be the key (missing,
// unreadable, not a keystore), said with its fix first as a signing
// command's is; passed is a file that holds, or may hold, another
// account's key, which a key found elsewhere may still sign for.
func (l Lookup) keystoreFile(src Source, want common.Address) (path string, passed, err error) {
	if src.Path == "" {
		addr := src.Address
		if addr == (common.Address{}) {
			addr = want // "keystore" alone: the account's own file
		}
		if addr != want {
			return "", fmt.Errorf("it names the key of %s, another account", addr.Hex()), nil
		}
		path, err := FindKeystore(l.KeystoreDir, addr)
		if errors.Is(err, errNoFile) {
			return "", nil, &noFolderFile{addr, l.KeystoreDir}
		}
		if err != nil {
			return "", nil, err
		}
		return path, nil, trusted(path)
	}
	addr, known, err := KeystoreFileAddress(src.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, ErrFileNotThere
	case err != nil:
		return "", nil, err
	case !known:
		return "", errors.New("the file does not say whose key it holds (Foundry writes no address), so only a login by wallet opens it"), nil
	case addr != want:
		return "", fmt.Errorf("the file holds the key of %s, another account", addr.Hex()), nil
	}
	return src.Path, nil, trusted(src.Path)
}

// ErrFileNotThere is a keystore file the environment's signer names that
// is not there, in the words after the setting, which names the path: the
// file's own error would repeat it.
var ErrFileNotThere = errors.New("the file is not there")

// trusted refuses, before anything is asked, a keystore file another
// user could swap (osguard.CheckPrivatePath), which LoadKeystoreKey would
// refuse only once its passphrase was typed on a review that said it signs.
func trusted(path string) error {
	return osguard.CheckPrivatePath(path)
}

// noFolderFile: the environment's signer names the keystore folder's file
// of Account, and the folder holds none. Its words leave the fix, importing
// the key, to NoKeyError's steps, which say it once.
type noFolderFile struct {
	Account common.Address
	Dir     string
}

func (e *noFolderFile) Error() string {
	return "no keystore file for " + e.Account.Hex() + " in " + safetext.Shown(e.Dir)
}
