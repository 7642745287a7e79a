package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// wordListsNotice ships in every release archive (LICENSES/*): the MIT
// notice of BIP-39's word lists, which svcwallet embeds
// (internal/safetext/bip39) and MIT asks to keep "in all copies".
const wordListsNotice = "LICENSES/BIP39-WORDLISTS.txt"

// TestEmbeddedWordListsLicensed: each word list embedded is named in
// LICENSES/BIP39-WORDLISTS.txt, which holds the licence of the project
// they come from, and NOTICE points to it; a list added without its
// notice fails here.
func TestEmbeddedWordListsLicensed(t *testing.T) {
	b, err := os.ReadFile(wordListsNotice)
	if err != nil {
		t.Fatal(err)
	}
	notice := string(b)
	for _, want := range []string{"Copyright (c) 2013-2016 Pavol Rusnak", "Permission is hereby granted, free of charge", "https://github.com/trezor/python-mnemonic"} {
		if !strings.Contains(notice, want) {
			t.Errorf("%s does not hold %q", wordListsNotice, want)
		}
	}
	lists, err := filepath.Glob("internal/safetext/bip39/*.txt")
	if err != nil || len(lists) == 0 {
		t.Fatalf("no word list found: %v", err)
	}
	named, _, _ := strings.Cut(notice, "-----")
	for _, l := range lists {
		if name := strings.TrimSuffix(filepath.Base(l), ".txt"); !strings.Contains(named, name) {
			t.Errorf("%s is embedded but %s does not name it", l, wordListsNotice)
		}
	}
	if n, err := os.ReadFile("NOTICE"); err != nil || !strings.Contains(string(n), wordListsNotice) {
		t.Errorf("NOTICE does not point to %s (%v)", wordListsNotice, err)
	}
}
