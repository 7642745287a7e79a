package signer

import (
	"bytes"
	"encoding/json"
)

// TypedDataJSON is the eth_signTypedData_v4 form of message m under
// domain d: what clef, a wallet or a signing command is given to sign. Integers of
// up to 32 bits are JSON numbers; 64-bit ones are decimal strings, which
// wallets accept and JavaScript cannot round.
func TypedDataJSON(d Domain, m Message) []byte {
	type member struct {
		Name string `json:"name"`
		Type string `json:"type"`
	}
	fields := m.Fields()
	members := make([]member, len(fields))
	var msg bytes.Buffer
	msg.WriteByte('{')
	for i, fl := range fields {
		members[i] = member{fl.Name, fl.Type}
		if i > 0 {
			msg.WriteByte(',')
		}
		msg.Write(marshalJSON(fl.Name))
		msg.WriteByte(':')
		var v []byte
		switch fl.Type {
		case "uint8", "uint32":
			v = []byte(fl.Display())
		default:
			v = marshalJSON(fl.Display())
		}
		msg.Write(v)
	}
	msg.WriteByte('}')
	return marshalJSON(struct {
		Types       map[string][]member `json:"types"`
		PrimaryType string              `json:"primaryType"`
		Domain      any                 `json:"domain"`
		Message     json.RawMessage     `json:"message"`
	}{
		Types: map[string][]member{
			"EIP712Domain":  {{"name", "string"}, {"version", "string"}, {"chainId", "uint256"}},
			m.PrimaryType(): members,
		},
		PrimaryType: m.PrimaryType(),
		Domain: struct {
			Name    string `json:"name"`
			Version string `json:"version"`
			ChainID uint64 `json:"chainId"`
		}{d.Name, DomainVersion, d.ChainID},
		Message: msg.Bytes(),
	})
}

// marshalJSON is json.Marshal without HTML escaping: "Admin&Trade", not
// "Admin\u0026Trade". The values here cannot fail to encode.
func marshalJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
