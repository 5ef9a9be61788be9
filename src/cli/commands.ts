/**
 * Every command of `mailroom`, in one table: its usage lines (in `mailroom --help` and `mailroom
 * NAME --help`), its details and how it runs. Each command's
 * module is imported when the command runs, never before: `--version`, `--help` and a usage
 * mistake load nothing but this table. To add a command, add an entry here.
 */
import type { Client } from "./client";
import type { Io } from "../lib/io";

export type CommandEntry = {
  name: string;
  /** Lines of `mailroom --help`: `  mailroom NAME ...` with what it does in the right column. */
  usage: string;
  /** What `mailroom NAME --help` says besides the usage: flags, variables, examples. */
  details?: string;
  /** Client commands talk to a running Mailroom: they take --url and --token (see CLIENT_DETAILS). */
  client?: boolean;
  /** Runs the command with the arguments after its name; resolves to the exit code (-1 while serving). */
  run(argv: string[], io: Io): Promise<number>;
};

/** A client command: given the client of the Mailroom that --url/--token (or their defaults) point at. */
type ClientRun = (argv: string[], client: Client, io: Io) => Promise<number>;
const client =
  (load: () => Promise<ClientRun>) =>
  async (argv: string[], io: Io): Promise<number> =>
    (await import("./client-run")).runClientCommand(argv, io, await load());

/** The commands of run.ts, which read the config: parsed by cli.ts, run by run.ts. */
const server = (name: string) => async (argv: string[]) => {
  const { serverCommand } = await import("./server-run");
  return serverCommand([name, ...argv]);
};

export const CLIENT_DETAILS = `Every client command takes --url URL and --token T (else $MAILROOM_URL and $MAILROOM_TOKEN, else
the credentials file serve writes next to its data file; --config FILE says which data file, as
for serve). Without any of them: http://127.0.0.1:8080 and no token.`;

export const CONFIG_DETAILS = `Config: --config FILE, else $MAILROOM_CONFIG, else ./mailroom.toml if present, else built-in
defaults (127.0.0.1:8080, data in ./data/mailroom.db). Environment overrides: MAILROOM_HOST,
MAILROOM_PORT, MAILROOM_DB, MAILROOM_DURABILITY, MAILROOM_DATABASE_URL, MAILROOM_PARENT_PID.
Precedence: defaults < file < environment < flags.`;

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "serve",
    usage: `  mailroom [serve] [--config FILE] [--port N] [--host H]   run the service (the default command)
           [--quiet] [--log-format text|json]             warnings and errors only; JSON lines
           [--forward-to URL [--channel C]]              forward every caught hook (of C), with retries
           [--forward PATTERN=URL]...                    routes by event type (invoice.*, *): first match wins
             [--resign KIND --secret S|--private-key @PEM]  signed as provider KIND, fresh timestamp
             [--chaos 'duplicate=0.2,reorder=2s,seed=42']  misbehave towards the app on purpose
           [--parent-pid PID]                            stop when the process PID ends (test suites)`,
    details: CONFIG_DETAILS,
    run: server("serve"),
  },
  {
    name: "listen",
    usage: `  mailroom listen URL --channel C --token T [--forward-to URL] [--config FILE] [--port N]
           [--forward PATTERN=URL]... [--insecure]        run a local Mailroom receiving channel C of the
                                                           Mailroom at URL (a relay key); nothing is lost
                                                           while away; --forward-to URL with retries,
                                                           --forward routes by event type
           (--resign, --secret, --private-key, --chaos as serve's)`,
    details: `Dials out to URL (upstream's public listener, or its one listener): no public port here. Each hook
is stored here under upstream's id, with its method, query, headers, exact body, sender address and
catch time, then acknowledged; upstream keeps it waiting while this is away. --forward-to retries for
about 6.5 minutes (1 s doubling to 15 s, 30 attempts). --forward 'invoice.*=URL' --forward '*=URL2'
sends each hook to the first route whose event type pattern matches it (as serve does). One listener per key and channel: a second is
told the first one's host and start time. URL is https://, or http:// to this machine; --insecure
allows plain http:// to another host (the token and the hooks then cross the network unencrypted).
A wrong token, a channel the key does not name or one upstream does not know ends listen with
status 1; an unreachable upstream is retried. See docs/relay.md.
${CONFIG_DETAILS}`,
    run: server("listen"),
  },
  {
    name: "check-config",
    usage: `  mailroom check-config [--config FILE]                    validate the config, print every problem
                                                           (and, for PostgreSQL, that the database answers)`,
    details: CONFIG_DETAILS,
    run: server("check-config"),
  },
  {
    name: "migrate",
    usage: "  mailroom migrate [--config FILE]                         apply the database's migrations without serving",
    details: CONFIG_DETAILS,
    run: server("migrate"),
  },
  {
    name: "healthcheck",
    usage: `  mailroom healthcheck [--config FILE] [--url URL]         exit 0 if the service answers (default URL:
                                                           the config's host and port), else 1`,
    details: CONFIG_DETAILS,
    run: server("healthcheck"),
  },
  {
    name: "user",
    usage: `  mailroom user add EMAIL [--role admin|member] [--password-stdin] [--config FILE]
                                                           add a dashboard user (a password is generated
                                                           and printed once unless read from stdin)`,
    details: CONFIG_DETAILS,
    run: server("user"),
  },
  {
    name: "tail",
    usage: "  mailroom tail [--channel C] [--status S] [-q Q] [--json] follow hooks as they are caught (and change)",
    client: true,
    run: client(async () => {
      const [{ tailCommand }, { untilSignal }] = await Promise.all([import("./tail"), import("./client-run")]);
      return (argv, c, io) => untilSignal((signal) => tailCommand(argv, c, io, signal));
    }),
  },
  {
    name: "hooks",
    usage: `  mailroom hooks ls [--channel C] [--status S] [--limit N] [--after ID] [--json]
                [-q "Q"] [--since T] [--until T]           search (docs/search.md): words, field terms, -x, OR, ( )
  mailroom hooks show ID [--json]                          headers and the body decoded for reading
  mailroom hooks body ID                                   the exact body bytes, to stdout
  mailroom hooks diff A B [--json]                         headers, query and JSON bodies: added, removed, changed
  mailroom hooks retry|discard|process|redeliver|delete ID
  mailroom hooks bulk ACTION -q "Q" [--url URL] [--tags T,U] [--dry-run] [--yes] [--json]
                                                           retry|redeliver|discard|delete|export|send|tag|untag|mark-read every match`,
    details: `hooks bulk counts the matches first; --dry-run stops there. On a terminal it asks before acting
(--yes does not ask; piped, --yes is needed) and shows a progress bar; Ctrl-C cancels the job. export
writes JSON lines to stdout; send takes --url (admins' keys). See docs/bulk.md.`,
    client: true,
    run: client(async () => (await import("./hooks")).hooksCommand),
  },
  {
    name: "handlers",
    usage: `  mailroom handlers ls [--json]                            the handlers: state, attempts waiting, rate, channels
  mailroom handlers pause|resume NAME                      hold a handler's attempts (kept across restarts) / let them run`,
    details: "A paused handler's attempts wait, and new hooks queue theirs; resume runs them all. See docs/handlers.md.",
    client: true,
    run: client(async () => (await import("./handlers")).handlersCommand),
  },
  {
    name: "views",
    usage: `  mailroom views ls [--counts] [--json]                    saved views: the shared ones and yours
  mailroom views save NAME -q "Q" [--shared]                save a named query (--shared: everyone's; admins)
  mailroom views rm NAME [--shared]                        remove your view (or the shared one)`,
    details: "A view is shown in the dashboard's sidebar with its count; /ui/hooks?view=NAME opens it. See docs/views.md.",
    client: true,
    run: client(async () => (await import("./views")).viewsCommand),
  },
  {
    name: "issues",
    usage: `  mailroom issues ls [--state S] [--limit N] [--after ID] [--json]   the alert rules' issues, newest first
  mailroom issues ack|resolve ID                           acknowledge (no more reminders) / resolve by hand`,
    details: "Issues are opened by the alert rules (the config file's [[alerts]] and those made with mailroom alerts add). See docs/alerts.md.",
    client: true,
    run: client(async () => (await import("./issues")).issuesCommand),
  },
  {
    name: "alerts",
    usage: `  mailroom alerts ls [--json]                              the alert rules: the config file's and those made with add
  mailroom alerts add NAME --kind K [--channels A,B] [--query Q] [--for D] [--threshold N] [--window D] [--notify N,M] ...
  mailroom alerts rm NAME                                  delete a rule made with add; its issues are resolved`,
    details: `add takes the keys of an [[alerts]] entry as flags (--event-types, --schedule, --reasons, --handlers, --repeat too),
checked as check-config checks the file; the rule is evaluated at once. See docs/alerts.md.`,
    client: true,
    run: client(async () => (await import("./alerts")).alertsCommand),
  },
  {
    name: "notifiers",
    usage: `  mailroom notifiers ls [--json]                           the alerts' notifiers: where they send (no secrets), counts, last error
  mailroom notifiers test NAME                             send a test notice now; exits 1 with the reason when it was not sent`,
    details: "Notifiers are the [[notifiers]] of the config file. See docs/notifiers.md.",
    client: true,
    run: client(async () => (await import("./notifiers")).notifiersCommand),
  },
  {
    name: "send",
    usage: `  mailroom send CHANNEL [--data @FILE|-|TEXT] [--header K:V]... [--method M]
                [--sign PROVIDER --secret S | --private-key @FILE]  signed as the provider does`,
    details: `--sign takes any provider of \`mailroom providers\`; --private-key (a PEM file, or the PEM text)
for those that sign with a key pair (discord, sendgrid, telnyx, wise, dyte). The headers given win
over the signer's and are signed as given (--header 'X-GitHub-Event: push' sends push).
--secret may come from $MAILROOM_SIGN_SECRET instead. The default body is a small JSON test object.`,
    client: true,
    run: client(async () => (await import("./send")).sendCommand),
  },
  {
    name: "trigger",
    usage: `  mailroom trigger PROVIDER EVENT [CHANNEL | --to URL] [--secret S | --private-key @FILE]
                [--override PATH=VALUE]... [--header K:V]...     send a realistic sample event, signed
  mailroom trigger --fixture FILE [CHANNEL | --to URL] [--override PATH=VALUE]... [--edit]
                [--sign PROVIDER --secret S | --private-key @FILE]  send a fixture, fresh ids and times
  mailroom trigger --list [PROVIDER]                       the providers and events there are`,
    details: `Events: GitHub's every event and action of @octokit/webhooks-examples (push, issues.opened...),
and Stripe, Shopify, Slack, Twilio, SendGrid, Paddle, Discord, Linear, Zoom, Clerk, Resend and
OpenAI's most used, written from their published schemas. Ids and times are fresh on every send.
CHANNEL defaults to the provider's name. --override sets a field of the body (a dotted path, or a
form field): a value that parses as JSON is used as such (--override data.object.amount=5000).
Signed when a key is given (--secret, $MAILROOM_SIGN_SECRET, or --private-key for key pairs).
--fixture FILE sends a fixture (mailroom fixtures save) to CHANNEL (default: the channel it was
caught on) or --to URL, with fresh ids and times where its provider puts them, signed as --sign
(default: the fixture's provider) when a key is given; --edit opens a copy in $EDITOR first.
See docs/fixtures.md.`,
    client: true,
    run: client(async () => (await import("./trigger")).triggerCommand),
  },
  {
    name: "fixtures",
    usage: `  mailroom fixtures save ID [--name NAME] [--dir fixtures/] [--no-scrub] [--force]
                                                           a caught hook as a fixture file, scrubbed`,
    details: `Writes DIR/NAME.json (default: fixtures/PROVIDER-EVENT.json): method, query, headers, body (JSON, text or
base64), provider and event type. Scrubbed by default: signature and credential headers dropped;
e-mail addresses, keys and tokens, card numbers, IP addresses and phone numbers replaced by stable
placeholders; [fixtures] keep and scrub of the server's config name fields. The file lists where
(never the values). --no-scrub keeps every value. An existing file is kept unless --force.
Send it with mailroom trigger --fixture FILE. See docs/fixtures.md.`,
    client: true,
    run: client(async () => (await import("./fixtures")).fixturesCommand),
  },
  {
    name: "providers",
    usage: "  mailroom providers [PROVIDER] [--json]                   the named providers and their signature schemes",
    details: 'Each is a guard kind (kind = "PROVIDER"); docs/providers.md has the same table.',
    run: async (argv, io) => (await import("./providers")).providersCommand(argv, io),
  },
  {
    name: "replay",
    usage: `  mailroom replay ID --to URL                              send a stored hook again, byte for byte
           [--resign KIND --secret S|--private-key @PEM]  signed afresh as provider KIND`,
    client: true,
    run: client(async () => (await import("./replay")).replayCommand),
  },
  {
    name: "export",
    usage: `  mailroom export [--search Q] [--channel C] [--status S] [--since T] [--until T] [--id ID]
                [--format jsonl|har] [--output FILE]       hooks as JSON lines (default) or HAR 1.2`,
    client: true,
    run: client(async () => (await import("./transfer")).exportCommand),
  },
  {
    name: "import",
    usage: "  mailroom import FILE|-                                   JSON lines as export writes them (ids and bytes kept)",
    details: "Importing twice changes nothing: hooks whose ids exist are skipped. Exit code 1 when a line could not be read.",
    client: true,
    run: client(async () => (await import("./transfer")).importCommand),
  },
  {
    name: "token",
    usage: `  mailroom token reset|show [--config FILE]                re-issue / print this machine's API token
  mailroom token create --label L [--scope relay --channel C]... [--channels P,...]
                                                           a new API key (a relay key for C, or one seeing channels P only), printed once`,
    details: `Both work on the data file that serve uses (found as serve finds it: --config FILE,
$MAILROOM_CONFIG or ./mailroom.toml, then $MAILROOM_DB; data/mailroom.db by default), so run them
where serve runs or point at its config. Neither creates a data file. \`token create\` stores a new key
there (a running Mailroom accepts it at its next request) and prints its token once; with --scope relay
and one or more --channel it relays those channels to \`mailroom listen\` and gets 403 everywhere else;
with --channels stripe-*,github (glob patterns) it reads and acts on those channels' hooks only (with
--scope read, it only reads).`,
    run: async (argv, io) => (await import("./token-run")).runToken(argv, io),
  },
];

/** The entry named `name`, if any. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
