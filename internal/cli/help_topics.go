package cli

import (
	"github.com/spf13/cobra"

	"github.com/svcwallet/svcwallet/signer"
)

// The help topics: what several commands share, said once here and not in
// each one's help (svcwallet help keys). The man page and docs/commands.md
// include each once.

const keysTopic = `Key sources: how the commands that sign (withdraw, builder authorize) and
those that log in by wallet signature (status, deposit, history --refresh,
withdraw resume and submit) find the main account's key.

The key is chosen with --signer SOURCE, else the environment's signer in
the config: keystore:ADDRESS (the keystore file of ADDRESS), a keystore
file's path (--keystore-file FILE is --signer FILE), env
($` + signer.KeyEnvVar + `), clef:ENDPOINT (go-ethereum's clef at
http://127.0.0.1:8550 or its IPC socket path: you approve each signature
in clef) or command (the environment's sign_command, else
$SVCWALLET_SIGN_COMMAND, for example cast wallet sign --ledger --data
--from-file {file}). --account ADDRESS names the address where the source
holds several or cannot tell (a command). Without either, the key is
$` + signer.KeyEnvVar + `, and on --env sandbox the sandbox's public demo key.
Every signature is checked against the expected address before it is used.

A keystore's passphrase is asked for at a hidden prompt, typed or pasted
once it shows: what was typed before is discarded, and a paste needs its
Enter typed after it, so a script that types it there (expect) is asked
again. It is one line of stdin when stdin is not a terminal, or the first
line of --password-file FILE: the ways for scripts. Never put a key on the
command line: an argument of a key's shape is refused before anything is
done, and never repeated.

Commands that log in use the session svcwallet auth login kept for the
environment while it lasts; else status, deposit and history --refresh log
in by wallet with the key of --signer when it is given, else with the API
key in $SVCWALLET_API_KEY, else by wallet signature with the environment's
signer or $` + signer.KeyEnvVar + `; withdraw logs in with the API key when it
is set, and signs with the key.
More: docs/keys.md.`

const environmentsTopic = `The environment a command acts in is --env NAME, else $SVCWALLET_ENV, else
default_env in the config, else the embedded sandbox: an exchange started in
the process with public demo keys, gone when it ends, so it knows none of
the withdrawals made elsewhere. When the config defines environments and
none is chosen, a command says so on stderr, and doctor warns.

The config is --config PATH, else $SVCWALLET_CONFIG, else config.toml in
the svcwallet folder of the user's config directory (svcwallet doctor
prints it). svcwallet sandbox serves a standalone sandbox and prints the
table that reaches it. More: docs/config.md.

The variables svcwallet reads:`

const checksTopic = `What withdraw and builder authorize (and the console and plain mode, which
ask the same) check before anything is signed.

withdraw checks --to for the chain and --amount, quotes, and refuses a
quote that asks another amount or whose fee or loss (pay - receive) is
above --max-fee. A loss above 5% of the amount is warned of (on stderr,
and in the JSON review's warnings). Above 50% most of the amount goes to
fees: on a terminal a second question asks whether to withdraw all the
same; --yes alone does not sign it: --accept-loss PCT signs a loss up to
PCT% of the amount (a larger one is refused, exit 1).

builder authorize warns of an API key allowed more than Trade. Any other
permission lets the builder move or administer your funds: on a terminal a
second question asks whether to grant it all the same; --yes alone, or
--signer offline, does not grant it: --grant PERMS, exactly the key's
--permissions, does (another is refused, exit 2).

The bridge address is checked against the one pinned in the config
(bridge_funding_address, changed only there) or the first one used: another
stops it before anything is signed. If the exchange announced the change,
--accept-bridge ADDRESS (exactly the new address) accepts it; it is
recorded once the withdrawal is confirmed (offline: once prepared).

The review names the environment first (name, base URL, chain id; on the
embedded sandbox, that nothing real moves there), then the EIP-712 message
field by field and its digest. On a terminal (standard input and standard
error both one) the question is asked on stderr, naming what its yes does
and, when it is not production, the environment ("Sign and withdraw 25 USDT
(23.5 USDT received) to ADDRESS on ARBITRUM, in environment testnet? [y/N]"),
where the review is written too (stdout gets the result): what was typed or
pasted before it is discarded, and an answer within half a second of it, or
(on unix) one that comes as a paste, is refused and the question asked
again: type the answer a key at a time. --yes does not ask. Without a
terminal and without --yes it refuses (exit 2) and signs and sends nothing.

A withdrawal whose request got no answer is finished by svcwallet withdraw
resume QUOTE_ID, which sends the identical request again or asks whether it
came. Until then, a new withdrawal of the same amount to the same
destination and chain is refused before anything is signed (exit 1; in
--json the error's quote_id is the earlier one's): it may have been paid,
so running the command again, or a script retrying on exit 5, would pay
twice. --allow-repeat signs anyway, for a second payment meant as one. An
identical withdrawal accepted in the last 10 minutes and not finished is
only warned about, and so is one made in the last 24 hours that ended
FAILED: its funds stay debited until support returns them, and this one
pays again.

The quote lives about a minute. If it has expired (or has 5 seconds or
less left, by the service's clock) once you answer, nothing is signed and
it asks "Get a new quote? [y/N]": yes reviews the new quote and asks again;
with --yes nothing is asked: run the command again. When the key source
waits for a person (clef, a device through a signing command) the review
says what happens if the quote expires meanwhile: the signature pays
exactly the amount, so a fresh quote for exactly that amount within
--max-fee (without it, costing no more than the reviewed quote), losing
no more than --accept-loss's share (without it, no more than the
reviewed quote where a second yes took its loss of most of the amount,
and not most of the amount where it was not), is sent with the same
signature, which was never sent.`

const offlineTopic = `Signing on another machine: --signer offline --account ADDRESS --out FILE
signs nothing here. After the review, withdraw and builder authorize write
the typed data alone (eth_signTypedData_v4 JSON; a withdrawal's is valid 30
minutes) to the new FILE for any wallet to sign as it is, keep what is
needed to finish in this machine's journal, and say how to send the
signature: svcwallet withdraw submit FILE --signature 0x... (it logs in
with $SVCWALLET_API_KEY) or svcwallet builder submit FILE --signature 0x...,
which send it once. There, a --builder that is your own account is refused
without --yes. A builder authorize --dry-run with --account and no --signer
needs no key: the account is the main account.`

const exitStatusTopic = `Every command ends with one of these statuses; with --json an error is
{"error":{"code","message","exit"}} on stdout, with the same status. status
of several ids ends with the largest of theirs.

  0    done; for status and withdraw --wait, the withdrawal COMPLETED;
       builder authorize: authorized (or the dry run printed)
  1    refused or failed, nothing paid (withdraw: the fee cap, a loss
       --accept-loss does not cover, the bridge address, the clock, the
       service's refusal, not confirmed, a quote that expired while you
       answered, an identical withdrawal that got no answer or was made
       meanwhile (for withdraw submit, since the Transfer was prepared),
       the key source's refusal or a wait for it cancelled or run out); for
       status and withdraw --wait, not paid out (FAILED, REFUNDED, or a
       quote that expired unexecuted; after FAILED the funds stay debited
       until support returns them, so 1 alone is no reason to withdraw
       again: the state says which); history and doctor: something to
       fix; the console: what it owed as it ended (a journal line, the
       watch board's last changes) could not be written, or a review's
       send was cut before it was sent, as said on stderr
  2    usage error, before anything is asked (flags, a quote id's or
       address's shape, an unknown --env; also no terminal to confirm on
       without --yes, and builder authorize of an API key beyond Trade
       with --yes or --signer offline and no --grant naming it)
  3    status and withdraw --wait: still pending (CREATED, SUBMITTED,
       SENDING), or NOT FOUND? (the service does not know a withdrawal this
       machine's journal saw accepted: contact support; --watch asks
       again), or NOT FOUND YET (one the journal holds sent with no
       answer, while its quote may still execute; past that, EXPIRED, 1);
       withdraw resume: whether the request arrived cannot be told yet
       (run it again after the time it says)
  4    status and withdraw resume: no withdrawal with this quote id on this
       account (an unknown id, or another account's: the service does not
       say which), or a payout hash or transfer id this machine has not
       seen; never for one its journal saw accepted or holds unanswered
  5    the login failed (the API key or wallet refused, not signed, no
       answer; --json code "login"); for status and withdraw any other
       error (network, configuration, an unreadable answer), and for
       withdraw no answer to the request, or an answer that does not say
       whether it paid (a 409, 9108, or a 3xx or 4xx the interface gives
       no meaning): withdraw resume QUOTE_ID settles it; and a Transfer
       whose nonce the service says was used already (withdraw submit
       after the state folder was restored from a backup): most likely
       paid, never to be signed again; builder authorize and submit: no
       answer, or one that does not say whether it was taken, or an
       authorization taken whose answer stdout did not take.
       Also, for status, withdraw and auth login, a document stdout did not
       take (--json code "output"), which the other commands exit 1 for;
       and the console, when a review's send was signed and had no answer
       as it ended: it may have been sent (stderr says what to check)
  6    withdraw and withdraw resume: the withdrawal was accepted, but the
       journal could not record it (a full disk) or the bridge address could
       not be recorded: run the withdraw resume it prints, which reconciles
       the journal
  130  interrupted by ctrl+c (131 ctrl+\, 143 SIGTERM, 129 SIGHUP): at a
       question nothing was signed or sent, nor once signed before the
       request left; a request already sent is awaited and journaled first`

// annotationManSection names a help topic's section in the man page.
const annotationManSection = "man-section"

// helpTopics are the topics, as commands with nothing to run: cobra's help
// finds them, they list under the root's help, and the man page and
// docs/commands.md print each once.
func helpTopics() []*cobra.Command {
	topic := func(use, short, man, long string) *cobra.Command {
		return &cobra.Command{Use: use, Short: short, Long: long, Annotations: map[string]string{annotationManSection: man}}
	}
	return []*cobra.Command{
		topic("keys", "Where the key that signs is found", "KEY SOURCES", keysTopic),
		topic("environments", "Which environment a command acts in; the variables", "ENVIRONMENT", environmentsTopic+"\n\n"+variablesProse()),
		topic("checks", "What is checked before a withdrawal or authorization is signed", "CHECKS BEFORE SIGNING", checksTopic),
		topic("offline", "Signing a withdrawal or authorization on another machine", "OFFLINE SIGNING", offlineTopic),
		topic("exit-status", "What each exit status means", "EXIT STATUS", exitStatusTopic),
	}
}
