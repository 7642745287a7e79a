package safetext

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// repeatedKeyTokens is the duplicate-key check as it was first written, one
// json.Decoder.Token at a time (50 µs a journal line): the reference the
// one-pass keyScanner is held to. err is the decoder's, for text that is
// not JSON.
func repeatedKeyTokens(body []byte) (name string, repeated bool, err error) {
	type frame struct {
		keys    map[string]bool // nil for an array
		wantKey bool
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var open []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		var top *frame
		if len(open) > 0 {
			top = open[len(open)-1]
		}
		if k, ok := tok.(string); ok && top != nil && top.keys != nil && top.wantKey {
			if l := foldKey(k); top.keys[l] {
				return k, true, nil
			} else {
				top.keys[l] = true
			}
			top.wantKey = false
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			open = open[:len(open)-1]
			continue
		}
		if top != nil && top.keys != nil {
			top.wantKey = true
		}
		switch tok {
		case json.Delim('{'):
			open = append(open, &frame{keys: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			open = append(open, &frame{})
		}
	}
}

// keyDocs are the documents both checks are run on: journal lines and
// answers as written, the hostile lines of the journal's tests, and
// repeated keys in every way encoding/json would match them.
var keyDocs = []string{
	`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-good"}`,
	`{"time":"2026-03-02T10:00:00Z","kind":"intent","env":"production","account_id":"acct-1","quote_id":"q-00000000","request":{"quote_id":"q-00000000","signature":{"signer":"0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266","r":"0x1111111111111111111111111111111111111111111111111111111111111111","s":"0x2222222222222222222222222222222222222222222222222222222222222222","v":27,"nonce":0,"expiration":"1772449200000000000","chain_id":327}},"intent":{"to_address":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","chain":"BASE","token_in":"USDT","token_out":"USDT","pay_amount":"10","receive_amount":"9.5","quote_expires_at":"2026-03-02T10:01:00Z"},"domain":{"name":"Service Exchange","chain_id":327},"transfer":{"from_account":"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266","from_sub_account":0,"to_account":"0x70997970c51812dc3a010c7d01b50e0d17dc79c8","to_sub_account":0,"token_currency":3,"num_tokens":10000000,"nonce":0,"expiration":1772449200000000000}}`,
	`{"time":"2026-03-01T10:00:00Z","kind":"accepted","env":"sandbox","quote_id":"q-\u001b]0;owned\u0007"}`,
	`{"time":"2026-03-01T10:00:00Z","kind":"state","env":"sandbox","quote_id":"q-3","state":"FAILED","STATE":"COMPLETED"}`,
	`{"state":"COMPLETED","ſtate":"FAILED"}`,
	`{"kind":"a","\u212aind":"b"}`,
	`{"kind":"a","\u004bIND":"b"}`,
	`{"st\u0061te":"a","state":"b"}`,
	`{"a":{"b":1,"B":2}}`,
	`{"a":{"b":1},"b":{"a":1}}`,
	`[{"a":1},{"a":1}]`,
	`{"a":[{"a":1,"b":[{"a":2}]}],"b":3}`,
	`{"a":[{"a":1,"b":[{"a":2}]}],"A":3}`,
	`{"a":1} {"a":2}`,
	`{"a":1} {"b":1,"b":2}`,
	`{"a":1,"a":2,"b":1,"B":2}`,
	`{"x":{"a":1,"A":2},"y":{"b":1,"b":2}}`,
	`[{"a":1,"a":2},{"b":1,"b":2}]`,
	`{"a":1,"a":2`,
	`{"a":1,"b"`,
	`{"a" 1}`,
	`{"a":01}`,
	`{"a":tru,"a":1}`,
	`{"a":"\ud800","a":1}`,
	`{"\ud800":1,"\udbff":2}`,
	"{\"\xff\":1,\"\xfe\":2}",
	"{\"a\xff\":1,\"A\xfe\":2}",
	`{"":1,"":2}`,
	`{"a":{}, "b":[], "c":[[]], "d":{"e":{}}}`,
	`{ "a" : 1 , "A" : 2 }`,
	`"just a string"`, `12`, `null`, `[]`, `{}`, ``, ` `, `{`, `}`, `[`, `]`, `,`, `:`, `"`, `"\`,
	`{"quote_id": 7}`, `not json`, `garbage`, `{"a":"b\"c","A":1}`,
}

// manyKeysDoc is an object of n keys, the last one repeating the first
// when dup: the keyscanner's set takes over past manyKeys.
func manyKeysDoc(n int, dup string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":1`)
	}
	if dup != "" {
		b.WriteString(`,"` + dup + `":2`)
	}
	return b.String() + "}"
}

// agree fails when RepeatedKey and repeatedKeyTokens disagree on doc: both
// must find the same repeated key in valid JSON, and a decoder checking
// either way must accept the same documents.
func agree(t *testing.T, doc []byte) {
	t.Helper()
	name, found := RepeatedKey(doc)
	oldName, oldFound, oldErr := repeatedKeyTokens(doc)
	if json.Valid(doc) && (found != oldFound || name != oldName) {
		t.Fatalf("%q: keyScanner says %q %v, the token check %q %v", doc, name, found, oldName, oldFound)
	}
	var v any
	accepts := func(found bool, err error) bool { return !found && err == nil && json.Unmarshal(doc, &v) == nil }
	if accepts(found, nil) != accepts(oldFound, oldErr) {
		t.Fatalf("%q: accepted with keyScanner %v, with the token check %v (%v)", doc, accepts(found, nil), accepts(oldFound, oldErr), oldErr)
	}
}

// TestRepeatedKeyAgrees: the one-pass check finds exactly what the token
// check found, the same key, on every document above.
func TestRepeatedKeyAgrees(t *testing.T) {
	docs := append([]string(nil), keyDocs...)
	for _, n := range []int{manyKeys - 1, manyKeys, manyKeys + 1, 200} {
		docs = append(docs, manyKeysDoc(n, ""), manyKeysDoc(n, "K"), manyKeysDoc(n, "kxx"), `{"a":`+manyKeysDoc(n, "KX")+`}`)
	}
	docs = append(docs, strings.Repeat("[", 10001)+strings.Repeat("]", 10001), strings.Repeat(`{"a":`, 10001)+"1"+strings.Repeat("}", 10001))
	refused := 0
	for _, d := range docs {
		agree(t, []byte(d))
		if _, found := RepeatedKey([]byte(d)); found {
			refused++
		}
	}
	if refused < 15 {
		t.Fatalf("only %d documents refused for a repeated key: the table lost its point", refused)
	}
}

// FuzzRepeatedKey: on any input the two checks agree (agree).
func FuzzRepeatedKey(f *testing.F) {
	for _, d := range keyDocs {
		f.Add([]byte(d))
	}
	f.Add([]byte(manyKeysDoc(manyKeys+2, "K")))
	f.Fuzz(func(t *testing.T, doc []byte) { agree(t, doc) })
}
