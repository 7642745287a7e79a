package signer

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/ethereum/go-ethereum/common"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/internal/safetext"
)

// KeystoreEnvVar overrides the keystore directory of DefaultKeystoreDir.
const KeystoreEnvVar = "SVCWALLET_KEYSTORE"

// ScryptN and ScryptP are the scrypt cost of the keystore files this package
// writes: geth's standard (256 MB, about a second) so a stolen file resists
// guessing. Tests lower them (exchangetest.CheapScrypt); decryption always
// uses the cost recorded in the file.
var ScryptN, ScryptP = standardScryptN, standardScryptP

// maxKeystoreFileSize bounds reads of keystore files (a V3 file is ~500 bytes),
// so listing a directory never slurps a stray large file.
const maxKeystoreFileSize = 64 << 10

// ErrWrongPassphrase is wrapped by LoadKeystoreKey when the passphrase does
// not decrypt the file, so a caller can ask again.
var ErrWrongPassphrase = errors.New("wrong passphrase")

// WrongPassphraseError names the key a passphrase did not unlock by its
// address (a file name's middle says little), or by the file's name when
// the file lists none. It is ErrWrongPassphrase; each face says what next,
// with the address in its own form (the console's is short).
type WrongPassphraseError struct {
	Address common.Address // zero when the file lists none
	File    string         // the file's base name
}

func (e *WrongPassphraseError) Error() string {
	if e.Address == (common.Address{}) {
		return "wrong passphrase for the keystore key in " + safetext.Shown(e.File)
	}
	return "wrong passphrase for the keystore key of " + e.Address.Hex()
}
func (e *WrongPassphraseError) Is(target error) bool { return target == ErrWrongPassphrase }

// missingFileError is a keystore file that is not there, said once (not
// followed by fs.ErrNotExist's words), and still fs.ErrNotExist.
type missingFileError struct{ path string }

func (e *missingFileError) Error() string {
	return "no keystore file at " + safetext.Shown(e.path) + ": check the path (`svcwallet key list` shows the keys)"
}
func (e *missingFileError) Is(target error) bool { return target == fs.ErrNotExist }

// ErrEmptyPassphrase refuses to write a keystore file anyone could decrypt.
var ErrEmptyPassphrase = errors.New("passphrase is empty; choose one to encrypt the key with")

// KeystoreEntry is one key file in a keystore directory. Files written by
// Foundry (`cast wallet import`) carry no clear-text address: AddressKnown is
// false for them until the file is decrypted.
type KeystoreEntry struct {
	Address      common.Address
	AddressKnown bool
	Path         string
}

// Name is the entry's file name, what tells apart files whose address is unknown.
func (e KeystoreEntry) Name() string { return filepath.Base(e.Path) }

// AddressText is the address, or a note saying it shows once the file is decrypted.
func (e KeystoreEntry) AddressText() string {
	if !e.AddressKnown {
		return "(address shown after decryption)"
	}
	return e.Address.Hex()
}

// DefaultKeystoreDir is $SVCWALLET_KEYSTORE as getenv reads it (the
// process's environment holds no SVCWALLET_* variable once the command
// line has taken them), else the keystore folder of osguard.DirsFor.
func DefaultKeystoreDir(getenv func(string) string) (string, error) {
	if d := getenv(KeystoreEnvVar); d != "" {
		// Every word of the keystore names its folder: a key or a
		// recovery phrase given for it by mistake is not repeated.
		switch safetext.TypedSecret(d) {
		case safetext.KeySecret:
			return "", fmt.Errorf("$%s holds %s and is not shown: set it to the keystore's folder, never a key", KeystoreEnvVar, safetext.KeyShape)
		case safetext.PhraseSecret:
			return "", fmt.Errorf("$%s holds the shape of a recovery phrase or of an extended private key (xprv…) and is not shown: set it to the keystore's folder, never a wallet's secret", KeystoreEnvVar)
		}
		return d, nil
	}
	d, err := osguard.UserDirs()
	if err != nil {
		return "", fmt.Errorf("cannot find the keystore folder (%v); set %s to a keystore directory", err, KeystoreEnvVar)
	}
	return d.Keystore, nil
}

// LoadKeystoreKey decrypts an encrypted keystore (V3 JSON) file.
func LoadKeystoreKey(path, passphrase string) (*PrivateKey, error) {
	// Another user able to swap the file could have the user sign with a key
	// they hold.
	if err := osguard.CheckPrivatePath(path); err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	b, err := readKeystoreFile(path)
	if err != nil {
		return nil, err
	}
	if !json.Valid(b) {
		return nil, fmt.Errorf("%s is not a valid keystore file: it is not keystore V3 JSON", safetext.Shown(path))
	}
	if err := checkKDF(b); err != nil {
		return nil, fmt.Errorf("keystore %s is refused: %v; it was not decrypted (re-encrypt the key with geth or cast wallet import, or check the file)", safetext.Shown(path), err)
	}
	k, addr, err := decryptKeyFile(b, passphrase)
	if errors.Is(err, errDecrypt) {
		e := &WrongPassphraseError{File: filepath.Base(path)}
		if a, ok := keystoreAddress(b); ok {
			e.Address = a
		}
		return nil, e
	}
	if err != nil {
		return nil, fmt.Errorf("keystore %s is not a valid keystore file: %v", safetext.Shown(path), err)
	}
	// The address field is what ListKeystore shows; a file whose key belongs
	// to another address would make the user sign as someone unexpected.
	if listed, ok := keystoreAddress(b); ok && listed != addr {
		return nil, fmt.Errorf("keystore %s lists address %s but holds the key of %s; the file was altered", safetext.Shown(path), listed.Hex(), addr.Hex())
	}
	return newPrivateKey(k), nil
}

// NewKeystoreKey creates a random key and stores it in dir, encrypted with passphrase.
func NewKeystoreKey(dir, passphrase string) (common.Address, string, error) {
	if passphrase == "" {
		return common.Address{}, "", ErrEmptyPassphrase
	}
	k, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return common.Address{}, "", fmt.Errorf("cannot generate a key: %w", err)
	}
	return storeKey(dir, k, passphrase)
}

// BuilderKeysDir is where the key pairs made for a builder's API key are
// kept: a folder inside the keystore, which ListKeystore (and so the login's
// list of keys) does not enter, since such a key signs the builder's
// trades and is no wallet of the person's.
func BuilderKeysDir(keystoreDir string) string { return filepath.Join(keystoreDir, "builder") }

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
	if err := NotStored(dir, k.Address()); err != nil {
		return common.Address{}, "", err
	}
	return storeKey(dir, k.key, passphrase)
}

// NotStored refuses the key of a when dir holds it already, naming its
// file: key import asks it before any passphrase, ImportRawKey again.
func NotStored(dir string, a common.Address) error {
	entries, err := ListKeystore(dir)
	for _, e := range entries {
		if e.Address == a {
			return fmt.Errorf("%s is already in the keystore: %s", a.Hex(), safetext.Shown(e.Path))
		}
	}
	return err
}

// ListKeystore lists the key files of dir in file-name order, which is
// creation order for the files written here. Hidden files, editor backups,
// symlinks and files that are not keystore JSON are skipped, as geth does,
// and so are names holding a control or escape character (KeystoreLeftOut).
// A missing directory is an empty keystore.
func ListKeystore(dir string) ([]KeystoreEntry, error) {
	out, _, err := scanKeystore(dir)
	return out, err
}

// KeystoreLeftOut lists the keystore files of dir that ListKeystore leaves
// out for a name holding a control or escape character, so doctor can say
// they exist (they may hold a key) without printing their names raw.
func KeystoreLeftOut(dir string) ([]string, error) {
	_, left, err := scanKeystore(dir)
	return left, err
}

// scanKeystore reads dir's keystore files: those listed, and the paths of
// those left out for their names.
func scanKeystore(dir string) (out []KeystoreEntry, leftOut []string, err error) {
	if dir == "" {
		// No keystore folder (the console's and plain mode's when
		// DefaultKeystoreDir refused one): none, where Abs would name the
		// folder svcwallet started in and its files were offered to sign.
		return nil, nil, nil
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("keystore directory: %w", err)
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("cannot read keystore directory: %w", err)
	}
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
		a, known := keystoreAddress(b)
		switch {
		case !known && !isKeystoreV3(b):
		case safetext.Text(name) != name:
			// No key file's name: every face prints the names, and the
			// terminal would run an escape in one.
			leftOut = append(leftOut, path)
		default:
			out = append(out, KeystoreEntry{Address: a, AddressKnown: known, Path: path})
		}
	}
	return out, leftOut, nil
}

// ErrChooseFile ends the refusal of an address no keystore file names
// while some files name none: the file itself must be chosen (each face
// says how).
var ErrChooseFile = errors.New("choose the file itself")

// errNoFile is FindKeystore's folder holding no file of the address,
// which importing its key mends (the environment's signer's, noFolderFile).
var errNoFile = errors.New("no keystore file")

// FindKeystore returns the one file in dir holding address.
func FindKeystore(dir string, address common.Address) (string, error) {
	entries, err := ListKeystore(dir)
	if err != nil {
		return "", err
	}
	var paths []string
	unknown := 0
	for _, e := range entries {
		if !e.AddressKnown {
			unknown++
		}
		if e.AddressKnown && e.Address == address {
			paths = append(paths, e.Path)
		}
	}
	switch {
	case dir == "":
		return "", fmt.Errorf("no keystore folder to find %s in (svcwallet doctor says why)", address.Hex())
	case len(paths) == 0 && unknown > 0:
		return "", fmt.Errorf("no keystore file names %s in %s, and %d file(s) there do not say their address (Foundry writes none): %w", address.Hex(), safetext.Shown(dir), unknown, ErrChooseFile)
	case len(paths) == 0:
		return "", fmt.Errorf("%w for %s in %s; see `svcwallet key list` or import the key with `svcwallet key import`", errNoFile, address.Hex(), safetext.Shown(dir))
	case len(paths) == 1:
		return paths[0], nil
	}
	for i, p := range paths {
		paths[i] = safetext.Shown(p)
	}
	return "", fmt.Errorf("%d keystore files hold %s (%s); keep one and move the others out of %s", len(paths), address.Hex(), strings.Join(paths, ", "), safetext.Shown(dir))
}

// storeKey encrypts k into a new file of dir named as geth names them.
func storeKey(dir string, k *secp256k1.PrivateKey, passphrase string) (common.Address, string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return common.Address{}, "", fmt.Errorf("keystore directory: %w", err)
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return common.Address{}, "", fmt.Errorf("cannot draw a key id: %w", err)
	}
	id[6] = id[6]&0x0f | 0x40 // UUID version 4
	id[8] = id[8]&0x3f | 0x80 // RFC 4122 variant
	address := addressOf(k.PubKey())
	blob, err := encryptKeyFile(k, id, passphrase, ScryptN, ScryptP)
	if err != nil {
		return common.Address{}, "", fmt.Errorf("cannot encrypt the key: %w", err)
	}
	if err := osguard.MkdirPrivate(dir); err != nil {
		return common.Address{}, "", fmt.Errorf("cannot create keystore directory: %w", err)
	}
	if err := osguard.CheckPrivatePath(dir); err != nil {
		return common.Address{}, "", fmt.Errorf("keystore: %w", err)
	}
	path := filepath.Join(dir, keyFileName(address, time.Now()))
	if err := writeKeyFile(path, blob); err != nil {
		return common.Address{}, "", fmt.Errorf("cannot write keystore file: %w", err)
	}
	return address, path, nil
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
	err = osguard.MakePrivate(tmp)
	if err == nil {
		_, err = f.Write(blob)
	}
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
		return nil, &missingFileError{path: path}
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a directory: pick a key file in it, e.g. from `svcwallet key list`", safetext.Shown(path))
	}
	b, err := osguard.ReadUserFile(path, maxKeystoreFileSize)
	switch {
	case errors.As(err, new(*osguard.TooLargeError)):
		return nil, fmt.Errorf("%s is too large to be a keystore file", safetext.Shown(path))
	case err != nil:
		return nil, fmt.Errorf("cannot read keystore file: %w", err)
	}
	return b, nil
}

// KeystoreFileAddress reads the clear-text address of a keystore V3 file;
// known is false for a valid V3 file without one (Foundry's), whose address
// is known only once it is decrypted.
func KeystoreFileAddress(path string) (addr common.Address, known bool, err error) {
	b, err := readKeystoreFile(path)
	if err != nil {
		return common.Address{}, false, err
	}
	if a, ok := keystoreAddress(b); ok {
		return a, true, nil
	}
	if isKeystoreV3(b) {
		return common.Address{}, false, nil
	}
	return common.Address{}, false, fmt.Errorf("%s is not a keystore V3 file", safetext.Shown(path))
}

// isKeystoreV3 tells a V3 file by its version and its crypto section, since
// the address field is optional (Foundry leaves it out).
func isKeystoreV3(b []byte) bool {
	var f struct {
		Version int             `json:"version"`
		Crypto  json.RawMessage `json:"crypto"`
	}
	return json.Unmarshal(b, &f) == nil && f.Version == 3 && len(f.Crypto) > 2
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
