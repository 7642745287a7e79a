package signer

import (
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// KeystoreEnvVar overrides the keystore directory of DefaultKeystoreDir.
const KeystoreEnvVar = "SVCWALLET_KEYSTORE"

// ScryptN and ScryptP are the scrypt cost of the keystore files this package
// writes: geth's standard (256 MB, about a second) so a stolen file resists
// guessing. Tests lower them to keystore.LightScryptN/P; decryption always
// uses the cost recorded in the file.
var ScryptN, ScryptP = keystore.StandardScryptN, keystore.StandardScryptP

// maxKeystoreFileSize bounds reads of keystore files (a V3 file is ~500 bytes),
// so listing a directory never slurps a stray large file.
const maxKeystoreFileSize = 64 << 10

// ErrWrongPassphrase is wrapped by LoadKeystoreKey when the passphrase does
// not decrypt the file, so a caller can ask again.
var ErrWrongPassphrase = errors.New("wrong passphrase")

// ErrEmptyPassphrase refuses to write a keystore file anyone could decrypt.
var ErrEmptyPassphrase = errors.New("passphrase is empty; choose one to encrypt the key with")

// KeystoreEntry is one key file in a keystore directory.
type KeystoreEntry struct {
	Address common.Address
	Path    string
}

// DefaultKeystoreDir is $SVCWALLET_KEYSTORE, else <user config dir>/svcwallet/keystore.
func DefaultKeystoreDir() (string, error) {
	if d := os.Getenv(KeystoreEnvVar); d != "" {
		return d, nil
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the user config directory (%v); set %s to a keystore directory", err, KeystoreEnvVar)
	}
	return filepath.Join(cfg, "svcwallet", "keystore"), nil
}

// LoadKeystoreKey decrypts an encrypted keystore (V3 JSON) file.
func LoadKeystoreKey(path, passphrase string) (*PrivateKey, error) {
	b, err := readKeystoreFile(path)
	if err != nil {
		return nil, err
	}
	if !json.Valid(b) {
		return nil, fmt.Errorf("%s is not a valid keystore file: it is not keystore V3 JSON", path)
	}
	k, err := keystore.DecryptKey(b, passphrase)
	if errors.Is(err, keystore.ErrDecrypt) {
		return nil, fmt.Errorf("%w for keystore %s", ErrWrongPassphrase, path)
	}
	if err != nil {
		return nil, fmt.Errorf("keystore %s is not a valid keystore file: %v", path, err)
	}
	// The address field is what ListKeystore shows; a file whose key belongs
	// to another address would make the user sign as someone unexpected.
	if listed, ok := keystoreAddress(b); ok && listed != k.Address {
		return nil, fmt.Errorf("keystore %s lists address %s but holds the key of %s; the file was altered", path, listed.Hex(), k.Address.Hex())
	}
	return NewPrivateKey(k.PrivateKey), nil
}

// NewKeystoreKey creates a random key and stores it in dir, encrypted with passphrase.
func NewKeystoreKey(dir, passphrase string) (common.Address, string, error) {
	if passphrase == "" {
		return common.Address{}, "", ErrEmptyPassphrase
	}
	k, err := crypto.GenerateKey()
	if err != nil {
		return common.Address{}, "", fmt.Errorf("cannot generate a key: %w", err)
	}
	return storeKey(dir, k, passphrase)
}

// ImportRawKey encrypts a raw hex private key into dir. An address already in
// dir is refused, so one address never has two files with different passphrases.
func ImportRawKey(dir, hexKey, passphrase string) (common.Address, string, error) {
	k, err := ParsePrivateKeyHex(hexKey)
	if err != nil {
		return common.Address{}, "", err
	}
	if passphrase == "" {
		return common.Address{}, "", ErrEmptyPassphrase
	}
	entries, err := ListKeystore(dir)
	if err != nil {
		return common.Address{}, "", err
	}
	for _, e := range entries {
		if e.Address == k.Address() {
			return common.Address{}, "", fmt.Errorf("%s is already in the keystore: %s", e.Address.Hex(), e.Path)
		}
	}
	return storeKey(dir, k.key, passphrase)
}

// ListKeystore lists the key files of dir in file-name order, which is
// creation order for the files written here. Hidden files, editor backups,
// symlinks and files that are not keystore JSON are skipped, as geth does.
// A missing directory is an empty keystore.
func ListKeystore(dir string) ([]KeystoreEntry, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("keystore directory: %w", err)
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read keystore directory: %w", err)
	}
	var out []KeystoreEntry
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") || !de.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, name)
		b, err := readKeystoreFile(path)
		if err != nil {
			continue
		}
		if a, ok := keystoreAddress(b); ok {
			out = append(out, KeystoreEntry{Address: a, Path: path})
		}
	}
	return out, nil
}

// FindKeystore returns the one file in dir holding address.
func FindKeystore(dir string, address common.Address) (string, error) {
	entries, err := ListKeystore(dir)
	if err != nil {
		return "", err
	}
	var paths []string
	for _, e := range entries {
		if e.Address == address {
			paths = append(paths, e.Path)
		}
	}
	switch len(paths) {
	case 0:
		return "", fmt.Errorf("no keystore file for %s in %s; see `svcwallet key list` or import the key with `svcwallet key import`", address.Hex(), dir)
	case 1:
		return paths[0], nil
	}
	return "", fmt.Errorf("%d keystore files hold %s (%s); keep one and move the others out of %s", len(paths), address.Hex(), strings.Join(paths, ", "), dir)
}

// storeKey encrypts k into a new file of dir named as geth names them.
func storeKey(dir string, k *ecdsa.PrivateKey, passphrase string) (common.Address, string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return common.Address{}, "", fmt.Errorf("keystore directory: %w", err)
	}
	key := &keystore.Key{Address: crypto.PubkeyToAddress(k.PublicKey), PrivateKey: k}
	if _, err := rand.Read(key.Id[:]); err != nil {
		return common.Address{}, "", fmt.Errorf("cannot draw a key id: %w", err)
	}
	key.Id[6] = key.Id[6]&0x0f | 0x40 // UUID version 4
	key.Id[8] = key.Id[8]&0x3f | 0x80 // RFC 4122 variant
	blob, err := keystore.EncryptKey(key, passphrase, ScryptN, ScryptP)
	if err != nil {
		return common.Address{}, "", fmt.Errorf("cannot encrypt the key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return common.Address{}, "", fmt.Errorf("cannot create keystore directory: %w", err)
	}
	path := filepath.Join(dir, keyFileName(key.Address, time.Now()))
	if err := writeKeyFile(path, blob); err != nil {
		return common.Address{}, "", fmt.Errorf("cannot write keystore file: %w", err)
	}
	return key.Address, path, nil
}

// keyFileName is geth's convention, UTC--<ISO 8601 with dashes>--<address hex>,
// so geth and other wallets recognise the files.
func keyFileName(a common.Address, t time.Time) string {
	return "UTC--" + t.UTC().Format("2006-01-02T15-04-05.000000000") + "Z--" + strings.ToLower(a.Hex()[2:])
}

// writeKeyFile writes through a hidden 0600 temporary file, synced and then
// renamed, so a crash never leaves a truncated key under the final name.
func writeKeyFile(path string, blob []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(blob)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func readKeystoreFile(path string) ([]byte, error) {
	switch fi, err := os.Stat(path); {
	case errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("keystore file %s does not exist: check the path (`svcwallet key list` shows the keys): %w", path, os.ErrNotExist)
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory: pick a key file in it, e.g. from `svcwallet key list`", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open keystore file: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxKeystoreFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read keystore file: %w", err)
	}
	if len(b) > maxKeystoreFileSize {
		return nil, fmt.Errorf("%s is too large to be a keystore file", path)
	}
	return b, nil
}

// keystoreAddress reads the plaintext address field of keystore JSON (geth
// writes it without 0x).
func keystoreAddress(b []byte) (common.Address, bool) {
	var f struct {
		Address string `json:"address"`
	}
	if json.Unmarshal(b, &f) != nil || !common.IsHexAddress(f.Address) {
		return common.Address{}, false
	}
	return common.HexToAddress(f.Address), true
}
