package exchange

import "testing"

func TestTokenInfoContractText(t *testing.T) {
	for _, tc := range []struct {
		tok  TokenInfo
		want string
	}{
		{TokenInfo{Name: TokenUSDT, ContractAddress: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"}, "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"},
		{TokenInfo{Name: TokenUSDT}, "unknown: provider unreachable"},
		{TokenInfo{Name: TokenUSDC}, "unknown: provider unreachable"},
		{TokenInfo{Name: "ETH"}, "native"},
		{TokenInfo{Name: "SOL", ContractAddress: "So11111111111111111111111111111111111111112"}, "So11111111111111111111111111111111111111112"},
	} {
		if got := tc.tok.ContractText(); got != tc.want {
			t.Errorf("%+v.ContractText() = %q, want %q", tc.tok, got, tc.want)
		}
	}
}
