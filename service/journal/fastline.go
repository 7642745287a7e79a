package journal

import (
	"strconv"
	"unicode/utf8"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/signer"
)

// Reading a line through encoding/json costs several times what a reader
// of its one layout does, and a journal is read whole by history and by an
// index rebuilt. decodeFast reads the layout json.Marshal gives the
// withdrawal lines (intent, accepted, rejected, state), which is what
// Append writes: each object's keys in its struct's order, at most once,
// no space, no escape in a string, integers as digits. Each value is read
// as encoding/json reads it (a time, an address, a chain id or an amount
// by its own UnmarshalJSON). Anything else, a prepared or builder line
// included, it leaves to exchange.Decode; FuzzDecodeFast holds the two to
// the same entry. Either way, check follows.

// entryKeys, requestKeys, … are the keys of each object in the order
// json.Marshal writes them.
var (
	entryKeys     = []string{"time", "kind", "env", "account_id", "quote_id", "service", "request", "intent", "domain", "transfer", "state", "withdraw_tx_hash", "error", "quote_expired"}
	serviceKeys   = []string{"host", "chain_id"}
	requestKeys   = []string{"quote_id", "signature"}
	signatureKeys = []string{"signer", "r", "s", "v", "nonce", "expiration", "chain_id"}
	intentKeys    = []string{"to_address", "chain", "token_in", "token_out", "pay_amount", "receive_amount", "quote_expires_at"}
	domainKeys    = []string{"name", "chain_id"}
	transferKeys  = []string{"from_account", "from_sub_account", "to_account", "to_sub_account", "token_currency", "num_tokens", "nonce", "expiration"}
)

// decodeFast reads line into e, reporting false (e left partly filled)
// when the line is not in the layout it reads or a value is refused: the
// full reader decides those.
func decodeFast(line []byte, e *Entry) bool {
	r := fastReader{b: line}
	ok := r.object(entryKeys, func(k int) bool {
		switch entryKeys[k] {
		case "time":
			return r.unmarshal(&e.Time)
		case "kind":
			return r.str(&e.Kind)
		case "env":
			return r.str(&e.Env)
		case "account_id":
			return r.str(&e.AccountID)
		case "quote_id":
			return r.str(&e.QuoteID)
		case "service":
			e.Service = new(config.Service)
			return r.object(serviceKeys, func(k int) bool {
				if k == 0 {
					return r.str(&e.Service.Host)
				}
				return r.uint(&e.Service.ChainID, 64)
			})
		case "request":
			e.Request = new(exchange.WithdrawRequest)
			return r.request(e.Request)
		case "intent":
			e.Intent = new(Intent)
			return r.intent(e.Intent)
		case "domain":
			e.Domain = new(signer.Domain)
			return r.object(domainKeys, func(k int) bool {
				if k == 0 {
					return r.str(&e.Domain.Name)
				}
				return r.uint(&e.Domain.ChainID, 64)
			})
		case "transfer":
			e.Transfer = new(signer.Transfer)
			return r.transfer(e.Transfer)
		case "state":
			return r.str(&e.State)
		case "withdraw_tx_hash":
			return r.str(&e.TxHash)
		case "error":
			return r.str(&e.Error)
		}
		return r.boolean(&e.QuoteExpired)
	})
	return ok && r.i == len(r.b)
}

func (r *fastReader) request(q *exchange.WithdrawRequest) bool {
	s := &q.Signature
	return r.object(requestKeys, func(k int) bool {
		if k == 0 {
			return r.str(&q.QuoteID)
		}
		return r.object(signatureKeys, func(k int) bool {
			switch k {
			case 0:
				return r.str(&s.Signer)
			case 1:
				return r.str(&s.R)
			case 2:
				return r.str(&s.S)
			case 3:
				var v int64
				ok := r.int(&v, strconv.IntSize)
				s.V = int(v)
				return ok
			case 4:
				var n uint64
				ok := r.uint(&n, 32)
				s.Nonce = uint32(n)
				return ok
			case 5:
				return r.str(&s.Expiration)
			}
			return r.unmarshal(&s.ChainID)
		})
	})
}

func (r *fastReader) intent(in *Intent) bool {
	var pay, receive exchange.WireAmount
	ok := r.object(intentKeys, func(k int) bool {
		switch k {
		case 0:
			return r.str(&in.ToAddress)
		case 1:
			return r.str(&in.Chain)
		case 2:
			return r.str(&in.TokenIn)
		case 3:
			return r.str(&in.TokenOut)
		case 4:
			return r.unmarshal(&pay)
		case 5:
			return r.unmarshal(&receive)
		}
		return r.unmarshal(&in.ExpiresAt)
	})
	return ok && in.decodeAmounts(pay, receive) == nil
}

func (r *fastReader) transfer(t *signer.Transfer) bool {
	return r.object(transferKeys, func(k int) bool {
		var n uint64
		switch k {
		case 0:
			return r.unmarshal(&t.FromAccount)
		case 1:
			return r.uint(&t.FromSubAccount, 64)
		case 2:
			return r.unmarshal(&t.ToAccount)
		case 3:
			return r.uint(&t.ToSubAccount, 64)
		case 4:
			ok := r.uint(&n, 8)
			t.TokenCurrency = uint8(n)
			return ok
		case 5:
			return r.uint(&t.NumTokens, 64)
		case 6:
			ok := r.uint(&n, 32)
			t.Nonce = uint32(n)
			return ok
		}
		return r.int(&t.Expiration, 64)
	})
}

// fastReader walks one line; every method reports false at what it does
// not read.
type fastReader struct {
	b []byte
	i int
}

// object reads an object whose keys are among keys, in their order, each
// at most once, calling value with each key's index to read its value.
func (r *fastReader) object(keys []string, value func(k int) bool) bool {
	if !r.byte('{') {
		return false
	}
	if r.byte('}') {
		return true
	}
	next := 0
	for {
		key, ok := r.plain()
		if !ok || !r.byte(':') {
			return false
		}
		k := next
		for k < len(keys) && keys[k] != string(key) {
			k++
		}
		if k == len(keys) || !value(k) {
			return false
		}
		next = k + 1
		if r.byte('}') {
			return true
		}
		if !r.byte(',') {
			return false
		}
	}
}

func (r *fastReader) byte(c byte) bool {
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// plain reads a string that holds no escape and no control character,
// valid UTF-8: encoding/json reads it as its bytes. It returns what is
// between the quotes.
func (r *fastReader) plain() ([]byte, bool) {
	if !r.byte('"') {
		return nil, false
	}
	start, ascii := r.i, true
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			s := r.b[start:r.i]
			r.i++
			return s, ascii || utf8.Valid(s)
		case c < 0x20 || c == '\\':
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return nil, false
}

func (r *fastReader) str(into *string) bool {
	s, ok := r.plain()
	*into = string(s)
	return ok
}

// unmarshal reads a plain string or an integer into a value that
// decodes itself (a time, an address, a chain id, an amount), as
// encoding/json does: it is given the value's text, quotes and all.
func (r *fastReader) unmarshal(into interface{ UnmarshalJSON([]byte) error }) bool {
	start := r.i
	ok := false
	if r.i < len(r.b) && r.b[r.i] == '"' {
		_, ok = r.plain()
	} else {
		_, ok = r.digits(true)
	}
	return ok && into.UnmarshalJSON(r.b[start:r.i]) == nil
}

// digits reads an integer as json.Marshal writes one: an optional minus
// (when signed), then 0 or digits not starting with 0.
func (r *fastReader) digits(signed bool) (string, bool) {
	start := r.i
	if signed {
		r.byte('-')
	}
	first := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	n := r.i - first
	return string(r.b[start:r.i]), n > 0 && (n == 1 || r.b[first] != '0')
}

func (r *fastReader) uint(into *uint64, bits int) bool {
	s, ok := r.digits(false)
	if !ok {
		return false
	}
	n, err := strconv.ParseUint(s, 10, bits)
	*into = n
	return err == nil
}

func (r *fastReader) int(into *int64, bits int) bool {
	s, ok := r.digits(true)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(s, 10, bits)
	*into = n
	return err == nil
}

func (r *fastReader) boolean(into *bool) bool {
	for _, lit := range []string{"true", "false"} {
		if len(r.b)-r.i >= len(lit) && string(r.b[r.i:r.i+len(lit)]) == lit {
			r.i += len(lit)
			*into = lit == "true"
			return true
		}
	}
	return false
}
