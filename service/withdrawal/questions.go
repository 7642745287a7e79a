package withdrawal

import (
	"strings"

	"github.com/svcwallet/svcwallet/service/config"
	"github.com/svcwallet/svcwallet/service/exchange"
	"github.com/svcwallet/svcwallet/service/intent"
)

// The questions of a withdrawal, as every face that asks them one a line
// asks them (plain mode, the command line for a flag it was not given),
// each checked by the withdrawal's own check.

// ChainQuestion asks for the destination chain of a token's route among
// those info gives, naming them when they are few enough for the line
// (RouteTo's refusal names them all).
func ChainQuestion(info exchange.WithdrawalInfo, token string) intent.Question {
	how := "such as ARBITRUM"
	if routes := info.Route[token]; len(routes) > 0 && len(routes) <= maxChainsNamed {
		names := make([]string, len(routes))
		for i, rt := range routes {
			names[i] = rt.Chain
		}
		how = config.JoinNames(names)
	}
	return intent.Question{Ask: "Destination chain", How: how, Check: func(a string) error {
		_, err := RouteTo(info, token, a)
		return err
	}}
}

// maxChainsNamed is the most chains the chain's question names: a
// deployment's long list is left to the refusal of one not among them.
const maxChainsNamed = 8

// DestinationQuestion asks for the address on the choice's route, checked
// for its chain (CheckAddress).
func (c Choice) DestinationQuestion() intent.Question {
	return intent.Question{Ask: "Destination address on " + strings.ToUpper(c.Route.Chain),
		How:   exchange.Articled(exchange.ChainTypeLabel(c.Route.ChainType)) + " address from the account's withdrawal address book",
		Check: func(a string) error { _, err := c.CheckAddress(a); return err }}
}

// AmountQuestion asks for the amount of token to pay.
func AmountQuestion(token string) intent.Question {
	return intent.Question{Ask: "Amount of " + token + " to pay", How: "such as 25 or 25.5", Check: func(a string) error {
		_, err := ParseAmount(a)
		return err
	}}
}

// FeeCapQuestion asks for the fee cap, in token; none, or an empty line
// (ParseFeeCap's no cap, as in the console's form), is an answer.
func FeeCapQuestion(token string) intent.Question {
	return intent.Question{Ask: "Fee cap in " + token, How: "refuse a quote whose fee or loss is above it", Empty: "none",
		Check: func(a string) error { _, err := ParseFeeCap(a); return err }}
}

// SignQuestion is the question whose yes signs and sends o, in every
// face's words: what is paid and received, where to and, outside
// production, in which environment, so that it reads right alone (a
// screen reader's last line). Faces add only their key convention.
func (o Order) SignQuestion(e config.Environment) string {
	return "Sign and withdraw " + o.Quote.PayAmount.String() + " " + o.Choice.TokenIn + " (" + o.Quote.ReceiveAmount.String() + " " + o.Choice.TokenOut +
		" received) to " + o.Choice.ToAddress + " on " + o.Choice.Route.Chain + e.Elsewhere() + "?"
}

// Question is the second question a severe loss needs (AcceptsLoss), in
// every face's words; faces add only their key convention. A converted
// payout's loss says how it is valued (Valued), as the review does.
func (l Loss) Question() string {
	lost := l.Lost.String() + " " + l.In
	if v := l.Valued(); v != "" {
		lost += " (" + v + ")"
	}
	return "You lose " + lost + ", " + l.Percent().String() + "% of the amount, to fees. " + lossAsk
}

// QuestionBrief is Question in the fewest words, for a face short of room
// whose figures above say the loss whole.
func (l Loss) QuestionBrief() string {
	return l.Percent().String() + "% goes to fees. " + lossAsk
}

const lossAsk = "Withdraw all the same?"
