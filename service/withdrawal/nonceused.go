package withdrawal

import (
	"errors"

	"github.com/svcwallet/svcwallet/service/exchange"
)

// PaidAlreadyHead opens the words of a withdrawal refused because its
// Transfer's nonce was used already (NonceUsed), where a face would say
// "Not withdrawn": the money most likely left.
const PaidAlreadyHead = "Most likely paid already"

// NonceUsed reports whether the service refused a withdraw request, in
// an answer, because its Transfer's (signer, nonce) was used already
// (4007). A nonce is drawn at random for each Transfer, so it is this very
// signed Transfer sent before on another quote (a prepared one submitted
// again once the journal forgot its submission, its state folder restored
// from a backup): most likely paid. After an attempt with no answer the
// client makes it an unknown outcome instead (exchange.OutcomeUnknown),
// which is resumed.
func NonceUsed(err error) bool {
	return errors.Is(err, exchange.CodeDuplicateSignature) && !exchange.OutcomeUnknown(err)
}

// nonceUsedWords word err (NonceUsed) of withdrawal quoteID for every
// face and for the journal: most likely paid, never "sign again", which
// would pay a second time. Each face names where it looks.
func nonceUsedWords(err error, quoteID string) error {
	return exchange.UserError{Head: PaidAlreadyHead, Text: "the service refused withdrawal " + quoteID +
		" because its Transfer's nonce was already used: this signed Transfer was most likely sent and paid before, by a request this journal does not hold" +
		" (its state folder restored from a backup, or sent from another machine); look at the account's withdrawals and balance before withdrawing again," +
		" and never sign it again, which would pay twice", Cause: err}
}
