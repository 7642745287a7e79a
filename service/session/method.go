package session

import (
	"errors"
	"path/filepath"

	"github.com/svcwallet/svcwallet/internal/osguard"
	"github.com/svcwallet/svcwallet/service/config"
)

// MethodsFile is the file, in the state folder, of the method each
// environment was last logged in with: the console's login opens on it.
const MethodsFile = "login-methods.json"

// Method is a way to log in.
type Method string

const (
	ByAPIKey Method = "api_key"
	ByWallet Method = "wallet"
)

// Methods keeps the method each environment was last logged in with. It
// holds no secret: only which of the two ways was taken.
type Methods struct {
	// File is MethodsFile in the state folder; "" keeps nothing.
	File string
}

// Last is the method env was last logged in with; "" when none is known,
// or when the file is not one svcwallet wrote (a link, another's, not its
// shape): it only chooses where the login opens, so it is then ignored.
func (m Methods) Last(env string) Method {
	switch method := m.read()[env]; method {
	case ByAPIKey, ByWallet:
		return method
	}
	return ""
}

// Remember records method as env's last, the others kept.
func (m Methods) Remember(env string, method Method) error {
	if m.File == "" {
		return nil
	}
	if method != ByAPIKey && method != ByWallet || !config.IsEnvName(env) {
		return errors.New("not a login method of an environment")
	}
	methods := m.read()
	if methods == nil {
		methods = map[string]Method{}
	}
	methods[env] = method
	if err := osguard.MkdirPrivate(filepath.Dir(m.File)); err != nil {
		return err
	}
	return config.WriteState(m.File, methods)
}

// read is the file's methods by environment name; none when there is no
// file or it is not of its shape.
func (m Methods) read() map[string]Method {
	var methods map[string]Method
	if m.File == "" || config.ReadState(m.File, &methods) != nil {
		return nil
	}
	return methods
}
