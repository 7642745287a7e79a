package safetext

import (
	"encoding/base64"
	"strings"
	"testing"
)

// TestSecretIn: the one check of "holds a key or a recovery phrase", in
// every shape its callers (quote ids, command-line arguments, doctor's
// variables) were each given, and the ids and lists it must let through.
func TestSecretIn(t *testing.T) {
	key := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("abandon ", n-1) + "about") }
	for s, want := range map[string]Secret{
		key:                                     KeySecret,
		strings.ToUpper(key):                    KeySecret,
		"0x" + key:                              KeySecret, // a payout hash too: a caller expecting one masks it
		"signer --private-key=0x" + key:         KeySecret,
		key[:32] + "\n" + key[32:]:              KeySecret,
		words(12):                               PhraseSecret,
		words(15):                               PhraseSecret,
		words(18):                               PhraseSecret,
		words(21):                               PhraseSecret,
		words(24):                               PhraseSecret,
		strings.ReplaceAll(words(12), " ", ","): PhraseSecret,
		"":                                      NoSecret,
		"q-1234 q-5678":                         NoSecret,
		words(11):                               NoSecret,
		strings.Repeat("123456789012345678901234 ", 4): NoSecret, // ids of 24 digits: four make 96, not 64
		"0x" + key + "00":                    KeySecret, // 66 digits in a row still hold a key
		"/usr/local/bin/signer --keystore x": NoSecret,
	} {
		if got := SecretIn(s); got != want {
			t.Errorf("SecretIn(%.40s) = %v, want %v", Quoted(s), got, want)
		}
	}
}

// TestTypedSecret: text typed (an API key) is held to SecretIn but a key in base64,
// the shape an honest API key may have (32 random bytes), which still logs
// in; a recovery phrase, a byte list and an extended private key do not.
func TestTypedSecret(t *testing.T) {
	phrase := "legal winner thank year wave sausage worth useful legal winner thank yellow"
	apiKey := base64.StdEncoding.EncodeToString([]byte("0123456789abcdef0123456789abcdef"))
	for s, want := range map[string]Secret{
		apiKey:             NoSecret,
		"sandbox-demo-key": NoSecret,
		"ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80": KeySecret,
		phrase:                                  PhraseSecret,
		"[" + strings.Repeat("17,", 31) + "17]": PhraseSecret,
		"xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi": PhraseSecret,
	} {
		if got := TypedSecret(s); got != want {
			t.Errorf("TypedSecret(%.40s) = %v, want %v", Quoted(s), got, want)
		}
	}
	if SecretIn(apiKey) != PhraseSecret {
		t.Errorf("the base64 API key is no secret's shape as an id: the test tells nothing")
	}
}
