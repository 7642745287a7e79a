package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestQuoteIDCompletion: status and withdraw resume complete the quote
// ids of the chosen environment's journal, the unfinished first (newest
// first), then the latest, each with its state, amount, destination and
// chain; ids already given are not offered again, resume takes one;
// withdraw --chain completes the chains as deposit generate does (issue
// 28 item 15). Nothing asks the network: the environment's URLs lead
// nowhere.
func TestQuoteIDCompletion(t *testing.T) {
	historyJournal(t)
	cfg := filepath.Join(t.TempDir(), "config.toml")
	var toml string
	for _, env := range []string{"local", "other"} {
		toml += "[env." + env + "]\nauth_url = \"http://127.0.0.1:1\"\nbase_url = \"http://127.0.0.1:1\"\nmarket_data_url = \"http://127.0.0.1:1\"\nchain_id = 327\n"
	}
	if err := os.WriteFile(cfg, []byte(toml), 0o600); err != nil {
		t.Fatal(err)
	}
	const about = "\t%s 25 USDT to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC on ARBITRUM"
	id := func(q, state string) string { return q + fmt.Sprintf(about, state) }
	all := []string{id("q-sending", "SENDING"), id("q-unanswered", "UNANSWERED"), id(longQuoteID, "COMPLETED"), id("q-refused", "REFUSED"), id("q-done", "COMPLETED")}
	for _, tc := range []struct {
		args []string
		want []string
		dir  string
	}{
		{[]string{"status", "--config", cfg, "--env", "local", ""}, all, ":36"},
		{[]string{"status", "--config", cfg, "--env", "local", "q-sending", "q-"}, append([]string{}, all[1:]...), ":36"},
		{[]string{"status", "--config", cfg, "--env", "other", "q-"}, []string{id("q-elsewhere", "UNANSWERED")}, ":36"},
		{[]string{"withdraw", "resume", "--config", cfg, "--env", "local", "q-s"}, all[:1], ":36"},
		{[]string{"withdraw", "resume", "--config", cfg, "--env", "local", "q-sending", ""}, nil, ":4"},
		{[]string{"withdraw", "--config", cfg, "--chain", ""}, []string{"ARBITRUM", "BASE", "BSC", "KAIA", "POLYGON", "SOLANA", "TRON"}, ":4"},
	} {
		r := depositCmd(t, nil, append([]string{"__complete"}, tc.args...)...)
		got := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		want := append(tc.want, tc.dir)
		if r.code != 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%q: exit %d, got\n%s\nwant\n%s\n(stderr %q)", tc.args, r.code, strings.Join(got, "\n"), strings.Join(want, "\n"), r.stderr)
		}
	}
}

// TestBashCompletionWithoutThePackage: the bash script completes in a bash
// without the bash-completion package (where cobra's needs its
// _get_comp_words_by_ref), a flag's value after = included.
func TestBashCompletionWithoutThePackage(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	r := depositCmd(t, nil, "completion", "bash")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "svcwallet.bash")
	// A stand-in svcwallet that answers __complete with the word completed
	// (its value, for a flag's after =), X after it.
	fake := "#!/bin/sh\nfor last; do :; done\nprintf '%s\\n' \"${last#*=}X\" ':4'\n"
	if os.WriteFile(script, []byte(r.stdout), 0o600) != nil || os.WriteFile(filepath.Join(dir, "svcwallet"), []byte(fake), 0o700) != nil {
		t.Fatal("cannot write the scripts")
	}
	for line, want := range map[string]string{
		"svcwallet sta":                   "staX",
		"svcwallet status --env=st":       "stX",
		"svcwallet withdraw --chain ":     "X",
		"svcwallet withdraw resume q-abc": "q-abcX",
	} {
		run := `source "$1"; COMP_LINE="$2"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$2"; COMP_CWORD=$((${#COMP_WORDS[@]}-1)); ` +
			`__start_svcwallet 2>/dev/null; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "--norc", "--noprofile", "-c", run, "bash", script, line)
		cmd.Env = []string{"PATH=" + dir + ":/usr/bin:/bin", "HOME=" + dir}
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil || strings.TrimSpace(out.String()) != want {
			t.Errorf("%q: got %q, want %q (%v, %s)", line, strings.TrimSpace(out.String()), want, err, stderr.String())
		}
	}
}
