package exchangetest

import (
	"strings"
	"testing"
)

// TestTypedDataHashRefusesWhatAWalletRefuses: a number outside its type's
// range, a field missing or a type not declared is an error, never a
// digest of something else (go-ethereum's apitypes refuses the same).
func TestTypedDataHashRefusesWhatAWalletRefuses(t *testing.T) {
	const doc = `{"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"chainId","type":"uint256"}],
		"M":[{"name":"a","type":"uint32"},{"name":"b","type":"int64"}]},
		"primaryType":"M","domain":{"name":"x","chainId":327},"message":{"a":A,"b":B}}`
	hash := func(a, b string) error {
		td, err := ReadTypedData([]byte(strings.NewReplacer("A", a, "B", b).Replace(doc)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = TypedDataHash(td)
		return err
	}
	if err := hash("4294967295", `"-9223372036854775808"`); err != nil {
		t.Fatalf("the bounds themselves: %v", err)
	}
	for name, ab := range map[string][2]string{
		"uint32 over":  {"4294967296", "0"},
		"uint32 below": {"-1", "0"},
		"int64 over":   {"0", `"9223372036854775808"`},
		"int64 below":  {"0", `"-9223372036854775809"`},
		"not a number": {`"1e3"`, "0"},
		"a fraction":   {"1.5", "0"},
	} {
		if err := hash(ab[0], ab[1]); err == nil {
			t.Errorf("%s: hashed", name)
		}
	}
}
