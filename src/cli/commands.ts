/**
 * Every command of `mailroom`, in one table: its usage lines (in `mailroom --help` and `mailroom
 * NAME --help`), its details and how it runs. Each command's
 * module is imported when the command runs, never before: `--version`, `--help` and a usage
 * mistake load nothing but this table. To add a command, add an entry here.
 */
import type { Client } from "./client";
import type { Io } from "./io";

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
           [--parent-pid PID]                            stop when the process PID ends (test suites)`,
    details: CONFIG_DETAILS,
    run: server("serve"),
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
    usage: "  mailroom tail [--channel C] [--status S] [--json]        follow hooks as they are caught (and change)",
    client: true,
    run: client(async () => {
      const [{ tailCommand }, { untilSignal }] = await Promise.all([import("./tail"), import("./client-run")]);
      return (argv, c, io) => untilSignal((signal) => tailCommand(argv, c, io, signal));
    }),
  },
  {
    name: "hooks",
    usage: `  mailroom hooks ls [--channel C] [--status S] [--limit N] [--after ID] [--json]
                [--search "Q"] [--since T] [--until T]     search: words and field terms (payload.a.b:v)
  mailroom hooks show ID [--json]                          headers and the body decoded for reading
  mailroom hooks body ID                                   the exact body bytes, to stdout
  mailroom hooks diff A B [--json]                         headers, query and JSON bodies: added, removed, changed
  mailroom hooks retry|discard|process|redeliver|delete ID`,
    client: true,
    run: client(async () => (await import("./hooks")).hooksCommand),
  },
  {
    name: "send",
    usage: `  mailroom send CHANNEL [--data @FILE|-|TEXT] [--header K:V]... [--method M]
                [--sign github|stripe|standard-webhooks|shopify|slack --secret S]`,
    details: "--secret may come from $MAILROOM_SIGN_SECRET instead. The default body is a small JSON test object.",
    client: true,
    run: client(async () => (await import("./send")).sendCommand),
  },
  {
    name: "replay",
    usage: "  mailroom replay ID --to URL                              send a stored hook again, byte for byte",
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
    usage: "  mailroom token reset|show [--config FILE]                re-issue / print this machine's API token",
    details: `Both work on the data file that serve uses (found as serve finds it: --config FILE,
$MAILROOM_CONFIG or ./mailroom.toml, then $MAILROOM_DB; data/mailroom.db by default), so run them
where serve runs or point at its config. Neither creates a data file.`,
    run: async (argv, io) => (await import("./token-run")).runToken(argv, io),
  },
];

/** The entry named `name`, if any. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
