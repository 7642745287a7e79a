package journal

import "svcwallet/signer"

// SignedMessage is the whole typed message of a signature as journaled
// before its request leaves: the domain, every field in type order, and the
// digest that was signed.
type SignedMessage struct {
	Domain      SignedDomain  `json:"domain"`
	PrimaryType string        `json:"primary_type"`
	Fields      []SignedField `json:"fields"`
	Digest      string        `json:"digest"`
}

// SignedDomain is the EIP-712 domain as journaled.
type SignedDomain struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	ChainID uint64 `json:"chain_id"`
}

// SignedField is one field of the message, its value as eth_signTypedData_v4 shows it.
type SignedField struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// NewSignedMessage describes m under d for the journal.
func NewSignedMessage(d signer.Domain, m signer.Message) *SignedMessage {
	s := &SignedMessage{
		Domain:      SignedDomain{Name: d.Name, Version: signer.DomainVersion, ChainID: d.ChainID},
		PrimaryType: m.PrimaryType(),
		Digest:      signer.Digest(d, m).Hex(),
	}
	for _, f := range m.Fields() {
		s.Fields = append(s.Fields, SignedField{Name: f.Name, Type: f.Type, Value: f.Display()})
	}
	return s
}
