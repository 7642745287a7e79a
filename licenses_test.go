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

// slip39Notice ships in every release archive (LICENSES/*): the MIT
// notice of SLIP-39's word list, which svcwallet embeds
// (internal/safetext/slip39).
const slip39Notice = "LICENSES/SLIP39-WORDLIST.txt"

// TestEmbeddedSLIP39ListLicensed: the SLIP-39 word list embedded is named
// in LICENSES/SLIP39-WORDLIST.txt with its project's licence and
// copyright, NOTICE points to it, and the release check fails an archive
// or package without it.
func TestEmbeddedSLIP39ListLicensed(t *testing.T) {
	b, err := os.ReadFile(slip39Notice)
	if err != nil {
		t.Fatal(err)
	}
	named, _, _ := strings.Cut(string(b), "-----")
	for _, want := range []string{"Copyright 2019 SatoshiLabs", "Permission is hereby granted, free of charge", "https://github.com/trezor/python-shamir-mnemonic"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s does not hold %q", slip39Notice, want)
		}
	}
	if _, err := os.Stat("internal/safetext/slip39/wordlist.txt"); err != nil || !strings.Contains(named, "internal/safetext/slip39/wordlist.txt") {
		t.Errorf("the list embedded is not the one %s names (%v)", slip39Notice, err)
	}
	for _, f := range []string{"NOTICE", ".ci/release-check"} {
		if n, err := os.ReadFile(f); err != nil || strings.Count(string(n), slip39Notice) < map[string]int{"NOTICE": 1, ".ci/release-check": 2}[f] {
			t.Errorf("%s does not name %s where it must (%v)", f, slip39Notice, err)
		}
	}
}
