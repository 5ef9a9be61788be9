import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;

export const HELP = `mailroom ${VERSION}: catch, keep and handle webhooks; serve a translation-ordering API

Usage:
  mailroom [serve] [--config FILE] [--port N] [--host H]   run the service
  mailroom check-config [--config FILE]                    validate the config, print every problem
  mailroom healthcheck [--config FILE] [--url URL]         exit 0 if the service answers (default URL:
                                                           the config's host and port), else 1
  mailroom user add EMAIL [--role admin|member] [--password-stdin] [--config FILE]
                                                           add a dashboard user (a password is generated
                                                           and printed once unless read from stdin)
  mailroom --version                                       print the version
  mailroom --help                                          print this help

Config: --config FILE, else $MAILROOM_CONFIG, else ./mailroom.toml if present, else built-in
defaults (127.0.0.1:8080, data in ./data/mailroom.db). Environment overrides: MAILROOM_HOST,
MAILROOM_PORT, MAILROOM_DB, MAILROOM_DURABILITY. Precedence: defaults < file < environment < flags.
`;

export type Command =
  | { kind: "serve" | "check-config" | "healthcheck"; config?: string; port?: number; host?: string; url?: string }
  | { kind: "user-add"; email: string; role: "admin" | "member"; passwordStdin: boolean; config?: string }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

/** Parses argv (without the runtime and script); never throws. */
export function parseArgs(argv: readonly string[]): Command {
  const args = [...argv];
  if (args.includes("--help") || args.includes("-h") || args[0] === "help") return { kind: "help" };
  if (args.includes("--version") || args.includes("-v")) return { kind: "version" };
  if (args[0] === "user") return parseUserAdd(args.slice(1));
  let kind = "serve" as "serve" | "check-config" | "healthcheck";
  if (args[0] === "serve" || args[0] === "check-config" || args[0] === "healthcheck") kind = args.shift() as typeof kind;
  const out: { kind: typeof kind; config?: string; port?: number; host?: string; url?: string } = { kind };
  while (args.length > 0) {
    const flag = args.shift()!;
    const [name, inline] = flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    const value = inline ?? args.shift();
    if (value === undefined) return { kind: "error", message: `${name} needs a value` };
    if (name === "--config") out.config = value;
    else if (name === "--url" && kind === "healthcheck") out.url = value;
    else if (name === "--host" && kind === "serve") out.host = value;
    else if (name === "--port" && kind === "serve") {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) return { kind: "error", message: `--port: not a port: ${value}` };
      out.port = port;
    } else return { kind: "error", message: `unknown argument: ${flag}` };
  }
  return out;
}

/** `user add EMAIL [--role admin|member] [--password-stdin] [--config FILE]` */
function parseUserAdd(args: string[]): Command {
  if (args.shift() !== "add") return { kind: "error", message: "user: the only subcommand is add" };
  const email = args.shift();
  if (!email || email.startsWith("-")) return { kind: "error", message: "user add: give the user's e-mail address" };
  const out: Extract<Command, { kind: "user-add" }> = { kind: "user-add", email, role: "member", passwordStdin: false };
  while (args.length > 0) {
    const flag = args.shift()!;
    if (flag === "--password-stdin") out.passwordStdin = true;
    else if (flag === "--role" || flag === "--config") {
      const value = args.shift();
      if (value === undefined) return { kind: "error", message: `${flag} needs a value` };
      if (flag === "--config") out.config = value;
      else if (value === "admin" || value === "member") out.role = value;
      else return { kind: "error", message: `--role: must be admin or member, not ${value}` };
    } else return { kind: "error", message: `unknown argument: ${flag}` };
  }
  return out;
}
