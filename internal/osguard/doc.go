// Package osguard keeps what the operating system could leak, or let
// another user change, away from svcwallet: private files (ssh's rules for
// a file and the directories above it, no link followed, a regular file
// opened without waiting, 0600 state files replaced atomically), the
// process itself (no core dump on every unix, no ptrace attach on Linux;
// ProtectionsOn says which) and the processes it
// starts (no SVCWALLET_ variable in their environment, a signing command
// in a process group of its own that ends whole). It imports only the
// standard library and x/sys, so every other package may use it.
package osguard
