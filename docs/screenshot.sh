#!/usr/bin/env bash
# Remakes docs/console.svg, the README's picture: the console's withdrawal
# review on the embedded sandbox, reached key by key in a tmux of its own,
# captured with its colours and drawn by charmbracelet/freeze.
# Needs tmux; installs freeze v0.2.2 into a temporary GOBIN.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
sock="svcwallet-shot-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT

GOBIN="$work/bin" go install github.com/charmbracelet/freeze@v0.2.2
go build -o "$work/svcwallet" .

# A home of its own, so no config, journal or keystore of yours is read.
mkdir -p "$work/home"
tmux -L "$sock" new-session -d -s shot -x 100 -y 32 \
  "env -i HOME=$work/home PATH=$PATH TERM=xterm-256color COLORTERM=truecolor $work/svcwallet --theme dark"

# wait_for TEXT: until the screen shows TEXT (at most 15 s).
wait_for() {
  for _ in $(seq 150); do
    tmux -L "$sock" capture-pane -p -t shot | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  echo "the console never showed: $1" >&2
  tmux -L "$sock" capture-pane -p -t shot >&2
  exit 1
}
keys() { tmux -L "$sock" send-keys -t shot "$@"; }

wait_for "ctrl+d fills them in"
keys C-d; wait_for "sandbox-demo-key"; keys Enter
wait_for "Withdraw USDT"; keys w
wait_for "7 destination chains"; keys Enter
wait_for "Fee cap USDT"
keys -l 0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC; keys Tab; keys -l 25; keys Enter
wait_for "Press enter to review"; keys Enter
wait_for "Press enter to sign and withdraw"

tmux -L "$sock" capture-pane -e -p -t shot >"$work/review.ansi"
"$work/bin/freeze" "$work/review.ansi" --window --padding 20 -o docs/console.svg
