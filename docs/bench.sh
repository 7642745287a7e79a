#!/usr/bin/env bash
# docs/bench.sh: every figure of the speed table in docs/testing.md, each
# side by side with its anchor in one run, from the repository's root:
#
#   docs/bench.sh              # about 15 minutes on 2 cores; ROUNDS=3 by default
#   ROUNDS=5 docs/bench.sh     # more rounds, steadier medians
#   CALLGRIND=1 docs/bench.sh  # also instruction counts (valgrind), which a busy machine does not move
#
# Needs go, jq, curl, tmux, /usr/bin/time and hyperfine (apt-get install jq hyperfine tmux time).
# Each pair runs interleaved (A, B, B, A, ...) so that a machine shared with other work slows both
# alike; a ratio is of medians. "cpu" is user + system time, "wall" the elapsed time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
for tool in go jq curl tmux hyperfine /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "bench.sh: $tool is missing" >&2; exit 2; }
done

work=$(mktemp -d)
sandbox_pid=
cleanup() {
  [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null || true
  tmux kill-session -t benchidle1 2>/dev/null || true
  tmux kill-session -t benchidle2 2>/dev/null || true
  tmux kill-session -t benchidle3 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
row() { printf '| %s | %s | %s | %s |\n' "$@"; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }

echo "building (CGO_ENABLED=0, -trimpath, as a release) ..." >&2
export CGO_ENABLED=0
go build -trimpath -o "$work/svcwallet" .
go build -trimpath -ldflags='-s -w' -o "$work/svcwallet-sw" .
(cd internal/cli && go build -trimpath -o "$work/bareframe" ./testdata/bareframe)
mkdir -p "$work/hello"
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hello") }\n' >"$work/hello/main.go"
printf 'module hello\n\ngo 1.26\n' >"$work/hello/go.mod"
(cd "$work/hello" && go build -trimpath -o "$work/hello-bin" .)
# The same hello importing (blank) every package svcwallet links: what
# initialising those packages costs any program that links them.
mkdir -p "$work/imports"
sed 's#^module .*#module imports#' go.mod >"$work/imports/go.mod" && cp go.sum "$work/imports/"
{
  printf 'package main\n\nimport (\n\t"fmt"\n\n'
  go list -deps . | grep -v -e '^github.com/svcwallet/' -e internal -e '^vendor/' -e '^runtime' -e '^unsafe$' -e '^fmt$' -e zkvm_runtime | sed 's/.*/\t_ "&"/'
  printf ')\n\nfunc main() { fmt.Println("hello") }\n'
} >"$work/imports/main.go"
(cd "$work/imports" && go build -trimpath -o "$work/imports-bin" .)
# Every binary is measured as installed (copied, as an archive's extraction
# or a package writes it), not as the linker left it: the linker writes its
# output through a memory map, whose page cache a large binary then starts
# from about a fifth slower (`version`: 6.1 against 4.9 ms of cpu on ext4,
# Linux 6.18, the same page faults), until the cache is dropped.
for bin in svcwallet svcwallet-sw bareframe hello-bin imports-bin; do
  cp "$work/$bin" "$work/$bin.copy" && mv "$work/$bin.copy" "$work/$bin"
done
sw="$work/svcwallet"

# Journals of 100k and 1M lines (20,000 and 200,000 withdrawals, 5 lines
# each, 5 unfinished), each in a state directory of its own.
for size in 100k:20000 1m:200000; do
  dir="$work/state-${size%%:*}/svcwallet"
  mkdir -p "$dir" && chmod 700 "$work/state-${size%%:*}" "$dir"
  echo "writing the ${size%%:*} journal ..." >&2
  SVCWALLET_GEN_JOURNAL="$dir/journal.jsonl:${size##*:}" go test ./service/journal -run TestWriteGenJournal -count=1 >/dev/null
done

# A standalone sandbox, a config naming it "production" (the generated
# journals' environment), and one withdrawal made on it.
"$sw" sandbox --listen 127.0.0.1:0 --settle 1s >"$work/sandbox.log" 2>&1 &
sandbox_pid=$!
for _ in $(seq 50); do grep -q base_url "$work/sandbox.log" && break; sleep 0.1; done
url=$(grep -m1 base_url "$work/sandbox.log" | sed 's/.*"\(.*\)"/\1/')
mkdir -p "$work/config/svcwallet" "$work/home" "$work/state-status" && chmod 700 "$work/config" "$work/config/svcwallet" "$work/state-status"
printf 'default_env = "production"\n[env.production]\nauth_url = "%s"\nbase_url = "%s"\nmarket_data_url = "%s"\nchain_id = 327\n' \
  "$url" "$url" "$url" >"$work/config/svcwallet/config.toml"
chmod 600 "$work/config/svcwallet/config.toml"
export HOME="$work/home" XDG_CONFIG_HOME="$work/config" XDG_STATE_HOME="$work/state-status" SVCWALLET_API_KEY=sandbox-demo-key
demo_key=$(awk '/wallet key/ {print $NF}' "$work/sandbox.log") # the sandbox's public demo key
quote=$(env -u SVCWALLET_API_KEY SVCWALLET_PRIVATE_KEY="$demo_key" \
  "$sw" withdraw --chain BASE --to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC --amount 25 --yes --json 2>/dev/null |
  jq -r 'select(.kind == "accepted") | .quote_id')
[ -n "$quote" ] || { echo "bench.sh: no withdrawal made on the sandbox" >&2; exit 1; }
cat >"$work/twocurls" <<EOF
#!/bin/sh
acct=\$(curl -s -c "$work/jar" -D - -o /dev/null -X POST -H 'Content-Type: application/json' \\
  -d '{"api_key":"sandbox-demo-key"}' "$url/auth/api_key/login" | sed -n 's/^X-Service-Account-Id: *\([^\r]*\).*/\1/ip')
curl -s -b "$work/jar" -H "X-Service-Account-Id: \$acct" "$url/api/v1/bridge/withdrawal-status?quote_id=$quote" >/dev/null
EOF
chmod +x "$work/twocurls"

# quick A B: the median over ROUNDS hyperfine rounds of each command's
# mean wall and cpu time, in ms, as "wallA cpuA wallB cpuB".
quick() {
  local a=$1 b=$2 i
  for i in $(seq "$ROUNDS"); do
    if [ $((i % 2)) = 1 ]; then set -- "$a" "$b"; else set -- "$b" "$a"; fi
    hyperfine -N -w 3 -r 20 --export-json "$work/q.json" "$1" "$2" >/dev/null 2>&1
    jq -r '.results[] | [.command, (.mean * 1000 | round), ((.user + .system) * 1000 | round)] | @tsv' "$work/q.json"
  done >"$work/quick.tsv"
  local out=
  for c in "$a" "$b"; do
    out+="$(awk -F'\t' -v c="$c" '$1 == c {print $2}' "$work/quick.tsv" | median) "
    out+="$(awk -F'\t' -v c="$c" '$1 == c {print $3}' "$work/quick.tsv" | median) "
  done
  echo "$out"
}

# long NAME CMD...: one run of CMD, its wall and cpu seconds and max RSS
# (KB) appended to $work/long-NAME.
long() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$work/t" "$@" >/dev/null 2>&1
  awk '{print $1, $2 + $3, $4}' "$work/t" >>"$work/long-$name"
}
col() { awk -v c="$2" '{print $c}' "$work/long-$1" | median; }
maxrss() { awk '{print $3}' "$work/long-$1" | sort -g | tail -1; }

echo >&2 "measuring ..."
echo "| figure | goal | measured | anchor |"
echo "|---|---|---|---|"

# `status ID` against two curls (a login, then the status).
read -r wa ca wb cb <<<"$(quick "$sw status $quote" "$work/twocurls")"
row '`status ID` / two curls' '≤ 0.5×' "$(ratio "$wa" "$wb")× wall, $(ratio "$ca" "$cb")× cpu ($wa ms)" "$wb ms"

# status, withdraw --dry-run, at 100k and 1M lines, once indexed.
for size in 100k 1m; do
  export XDG_STATE_HOME="$work/state-$size"
  "$sw" history -n 1 >/dev/null # the index, written once
  read -r wa ca wb cb <<<"$(quick "$sw status $quote" "$sw withdraw --chain BASE --to 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC --amount 25 --dry-run")"
  row "\`status\`, \`withdraw --dry-run\` at $size lines, indexed" '≤ 0.3 s' "$wa ms, $wb ms" '—'
done

# history, --json, --csv, and the index rebuilt, against jq empty.
for size in 100k 1m; do
  export XDG_STATE_HOME="$work/state-$size"
  journal="$XDG_STATE_HOME/svcwallet/journal.jsonl"
  for _ in $(seq "$ROUNDS"); do
    long "jq-$size" jq empty "$journal"
    long "history-$size" "$sw" history
    long "json-$size" "$sw" history --json
    long "csv-$size" "$sw" history --csv
    rm -f "$journal.index"
    long "rebuild-$size" "$sw" history -n 1
    long "jq-$size" jq empty "$journal"
  done
  jqw=$(col "jq-$size" 1) jqc=$(col "jq-$size" 2)
  for what in history json csv; do
    label=$([ "$what" = history ] && echo '`history`' || echo "\`history --$what\`")
    row "$label at $size lines / \`jq empty\`" '≤ 2×, ≤ 64 MB' \
      "$(ratio "$(col "$what-$size" 1)" "$jqw")× wall, $(ratio "$(col "$what-$size" 2)" "$jqc")× cpu, $(($(maxrss "$what-$size") / 1024)) MB" \
      "${jqw} s wall, ${jqc} s cpu"
  done
  row "index rebuilt at $size lines (\`history -n 1\`) / \`jq empty\`" '≤ 1.5×, ≤ 64 MB' \
    "$(ratio "$(col "rebuild-$size" 1)" "$jqw")× wall, $(ratio "$(col "rebuild-$size" 2)" "$jqc")× cpu, $(($(maxrss "rebuild-$size") / 1024)) MB" \
    "${jqw} s wall, ${jqc} s cpu"
done
export XDG_STATE_HOME="$work/state-status"

# svcwallet version against a Go hello-world, and the binary's size.
read -r wa ca wb cb <<<"$(quick "$sw version" "$work/hello-bin")"
row '`svcwallet version` / Go hello' '≤ 2×' "$(ratio "$wa" "$wb")× wall, $(ratio "$ca" "$cb")× cpu ($wa ms)" \
  "$wb ms; binary $(($(stat -c %s "$sw") / 1048576)) MB, $(($(stat -c %s "$work/svcwallet-sw") / 1048576)) MB with -s -w"
read -r wa ca wb cb <<<"$(quick "$work/imports-bin" "$work/hello-bin")"
row 'Go hello importing what svcwallet links / Go hello' '—' "$(ratio "$wa" "$wb")× wall, $(ratio "$ca" "$cb")× cpu ($wa ms)" "$wb ms"

# The console idle on its login screen against the bare program, and the
# bare program on one processor as the console runs once started, a minute
# side by side (a 20 s sample of ticks is too few to tell 10% apart).
tmux new-session -d -s benchidle1 -x 120 -y 40 "$sw"
tmux new-session -d -s benchidle2 -x 120 -y 40 "$work/bareframe"
tmux new-session -d -s benchidle3 -x 120 -y 40 "env GOMAXPROCS=1 $work/bareframe"
sleep 3
p1=$(tmux list-panes -t benchidle1 -F '#{pane_pid}') p2=$(tmux list-panes -t benchidle2 -F '#{pane_pid}')
p3=$(pgrep -P "$(tmux list-panes -t benchidle3 -F '#{pane_pid}')" || tmux list-panes -t benchidle3 -F '#{pane_pid}')
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
s1=$(ticks "$p1") s2=$(ticks "$p2") s3=$(ticks "$p3")
sleep 60
e1=$(ticks "$p1") e2=$(ticks "$p2") e3=$(ticks "$p3")
row 'idle console cpu / bare Bubble Tea (60 s)' '≤ 1×' "$(ratio "$((e1 - s1 + 1))" "$((e2 - s2 + 1))")× ($((e1 - s1)) ticks)" \
  "$((e2 - s2)) ticks; the bare program on one processor $((e3 - s3))"
tmux kill-session -t benchidle1
tmux kill-session -t benchidle2
tmux kill-session -t benchidle3

# The Go benchmarks that time a pair in each iteration.
bench() { go test "$@" 2>/dev/null | awk '/^Benchmark/'; }
bench -tags e2e ./internal/cli/ -run '^$' -bench 'SilentTerminal/--help|FirstFrame' -benchtime 10x >"$work/cli.txt"
help=$(awk '/SilentTerminal\/--help/ {printf "%.0f", $3 / 1e6}' "$work/cli.txt")
row '`--help` on a terminal that never answers' '≤ 0.3 s' "$help ms" '—'
for term in silent answering; do
  read -r c b r <<<"$(awk -v t="FirstFrame/$term" '$1 ~ t {for (i = 3; i < NF; i += 2) v[$(i+1)] = $i; print v["console-ms"], v["bare-ms"], v["ratio"]}' "$work/cli.txt")"
  row "first frame on a terminal that $([ $term = silent ] && echo 'never answers' || echo answers) / bare Bubble Tea" '≤ 1.2×' "${r}× ($c ms)" "$b ms"
done
read -r s b r <<<"$(bench ./signer/ -run '^$' -bench 'SignVsBare' -benchtime 2000x | awk '{for (i = 3; i < NF; i += 2) v[$(i+1)] = $i; print v["sign-ns/op"], v["bare-ns/op"], v["ratio"]}')"
row 'Transfer signed with its check / `crypto.Sign` + `Ecrecover`' '≤ 1.2×' "${r}× ($((${s%.*} / 1000)) µs)" "$((${b%.*} / 1000)) µs"

if [ "${CALLGRIND:-}" = 1 ]; then
  export GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off # valgrind knows no rdtscp
  # Without asyncpreemptoff callgrind stops at the Go runtime's preemption
  # signal (an assertion in its signal handling) and counts nothing.
  refs() { GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | awk '/refs:/ {gsub(",", "", $4); print $4}'; }
  export XDG_STATE_HOME="$work/state-100k"
  j=$(refs jq empty "$XDG_STATE_HOME/svcwallet/journal.jsonl")
  row 'instructions: `history` at 100k / `jq empty`' '—' "$(ratio "$(refs "$sw" history)" "$j")×" "$j"
  h=$(refs "$work/hello-bin")
  row 'instructions: `svcwallet version` / Go hello' '—' "$(ratio "$(refs "$sw" version)" "$h")×" "$h"
  row 'instructions: Go hello importing what svcwallet links / Go hello' '—' "$(ratio "$(refs "$work/imports-bin")" "$h")×" "$h"
fi
