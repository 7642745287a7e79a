package exchange

import (
	"encoding/json"

	"github.com/svcwallet/svcwallet/internal/safetext"

	"github.com/shopspring/decimal"
)

// Amounts are decoded as text first (WireAmount) and parsed only within
// their bounds; these decoders put the bounded values in place. The other
// fields decode as usual through the embedded alias.

func (q *Quote) UnmarshalJSON(b []byte) error {
	type plain Quote
	var w struct {
		*plain
		PayAmount     WireAmount `json:"pay_amount"`
		ReceiveAmount WireAmount `json:"receive_amount"`
		Fee           WireAmount `json:"fee"`
		FeeUSD        WireAmount `json:"fee_usd"`
	}
	w.plain = (*plain)(q)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	// token_in is USDT or USDC (SPEC.md §4.7), 6 decimals either way; the
	// receive amount's token is checked against the request (Client.Quote).
	return decodeAmounts(
		amountField{"pay amount", w.PayAmount, TokenDecimals, true, &q.PayAmount},
		amountField{"receive amount", w.ReceiveAmount, maxWireDigits, true, &q.ReceiveAmount},
		amountField{"fee", w.Fee, TokenDecimals, true, &q.Fee},
		amountField{"fee in USD", w.FeeUSD, maxWireDigits, false, &q.FeeUSD},
	)
}

func (a *WithdrawAccepted) UnmarshalJSON(b []byte) error {
	type plain WithdrawAccepted
	var w struct {
		*plain
		ReceiveAmount WireAmount `json:"receive_amount"`
		Fee           WireAmount `json:"fee"`
		FeeUSD        WireAmount `json:"fee_usd"`
	}
	w.plain = (*plain)(a)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	return decodeAmounts(
		amountField{"locked receive amount", w.ReceiveAmount, maxWireDigits, false, &a.ReceiveAmount},
		amountField{"locked fee", w.Fee, TokenDecimals, false, &a.Fee},
		amountField{"locked fee in USD", w.FeeUSD, maxWireDigits, false, &a.FeeUSD},
	)
}

func (wd *Withdrawal) UnmarshalJSON(b []byte) error {
	type plain Withdrawal
	var w struct {
		*plain
		ReceiveAmount WireAmount `json:"receive_amount"`
	}
	w.plain = (*plain)(wd)
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	return decodeAmounts(amountField{"receive amount", w.ReceiveAmount, TokenDecimalsOf(wd.TokenOut), false, &wd.ReceiveAmount})
}

type amountField struct {
	name     string
	text     WireAmount
	decimals int
	required bool
	into     *decimal.Decimal
}

func decodeAmounts(fields ...amountField) error {
	for _, f := range fields {
		d, err := f.text.Decode(f.name, f.decimals, f.required)
		if err != nil {
			return err
		}
		*f.into = d
	}
	return nil
}

// Decode decodes JSON read from the network or the disk into out,
// refusing repeated keys (checkKeys) and out-of-bounds amounts (a
// *ShapeError either way).
func Decode(b []byte, out any) error {
	if err := checkKeys(b); err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// checkKeys refuses a JSON document in which an object holds two keys that
// name the same field (safetext.RepeatedKey), for every journal line read
// back and every answer.
func checkKeys(body []byte) error {
	if name, repeated := safetext.RepeatedKey(body); repeated {
		return NewShapeError("JSON object", "names the field %q twice (the keys differ only in case, or repeat)", safetext.Line(name, safetext.MaxNameLen))
	}
	return nil
}
