package plain

import (
	"fmt"
	"strings"

	"github.com/svcwallet/svcwallet/internal/safetext"
	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/intent"
	"github.com/svcwallet/svcwallet/service/withdrawal"
	"github.com/svcwallet/svcwallet/signer"
)

// Reviews as lines of text: the facts the console's reviews show (the
// withdrawal and its quote, the typed data field by field with what each
// means from intent.Review, the digest, the key), a line each, "label:
// value (note)", so a screen reader says each whole.

// line writes "label: value" and its note, when there is one.
func (s *session) line(label, value, note string) {
	if note == "" {
		s.p.Say("  %s: %s", label, value)
		return
	}
	s.p.Say("  %s: %s (%s)", label, value, note)
}

// facts writes a journey's facts, a line each, but those not known ("").
func (s *session) facts(fs []intent.Fact) {
	for _, f := range fs {
		if f.Value != "" {
			s.line(f.Label, f.Value, f.Note)
		}
	}
}

// printReview shows what a withdrawal signs: the console's review.
func (s *session) printReview(o withdrawal.Order, trust withdrawal.BridgeTrust, key reviewKey) {
	s.p.Blank()
	s.p.Say("Review: the withdrawal")
	s.facts(o.Facts())
	s.printTypedData(o.Review(trust.Note(), false), key)
	s.p.Say("%s", withdrawal.ReviewSentence)
	if key.waits {
		s.p.Say("%s", withdrawal.RequoteNote(o))
	}
}

// sayWhere names, right above a question that signs, the environment it
// signs in, as the command line's review and the console's do.
func (s *session) sayWhere() {
	e := s.target.Env
	s.p.Say("Environment: %s.", e.Where())
	if e.Embedded() {
		s.p.Say("  %s.", safetext.Capitalized(config.EmbeddedWords))
	}
}

// printTypedData shows what the key will sign: the domain, the message
// field by field, the digest, for a key that waits for a person the hashes
// a device that signs blind shows, and the key.
func (s *session) printTypedData(r intent.Review, key reviewKey) {
	s.p.Blank()
	s.p.Say("Review: what will be signed (EIP-712)")
	s.line("Domain", fmt.Sprintf("name %q, version %q, chain id %d", r.Domain.Name, signer.DomainVersion, r.Domain.ChainID), "")
	s.line("Message", r.Message.PrimaryType(), "field by field")
	for _, f := range r.Fields() {
		s.line("  "+f.Name+" ("+f.Type+")", f.Value, f.Meaning)
	}
	s.line("Digest", r.Digest().Hex(), "")
	if key.waits {
		s.facts(r.BlindFacts())
	}
	if key.err == nil {
		s.line("Signing key", key.who, "")
	}
}

// withdrawer is the session's withdrawal workflow
// (withdrawal.NewWithdrawer): one that signs has the journal, or none is
// made; a follower's (follows) signs nothing and may have none.
func (s *session) withdrawer(follows bool) (withdrawal.Withdrawer, error) {
	return withdrawal.NewWithdrawer(withdrawal.Setup{Client: s.client(), Journal: s.target.Journal, Now: s.Now,
		BridgePins: s.target.BridgePins(), DryRun: follows})
}

// trimStop is err's text without its closing full stop, for a sentence
// that goes on.
func trimStop(err error) string { return strings.TrimSuffix(err.Error(), ".") }
