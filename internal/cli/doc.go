// Package cli is svcwallet's command line (cobra): each command gathers its
// flags, calls the domain (withdrawal, builder, intent, follow, journal)
// and words the outcome for a terminal or a script (--json), with its exit
// status; with no command it starts the console.
package cli
