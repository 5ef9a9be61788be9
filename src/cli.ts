/**
 * The arguments of the commands that read the config (serve, check-config, migrate, healthcheck,
 * user add), as run.ts takes them. Their usage lines are in cli/commands.ts.
 */
import { type FlagSpec, parseFlags, takeFlags, UsageError } from "./lib/args";
import { didYouMean } from "./lib/suggest";
import { plainUpstreamProblem } from "./lib/plain-upstream";
import { readFileSync } from "node:fs";
import { parseChaosFlag } from "./config/delivery";
import type { Overrides } from "./config/load";
import { forwardRoute, routeProblem } from "./delivery/routes";

export type ServeOptions = {
  config?: string;
  port?: number;
  host?: string;
  quiet?: boolean;
  logFormat?: "text" | "json";
  /** `--forward-to URL [--channel C] [--resign KIND --secret S|--private-key @PEM] [--chaos 'duplicate=0.2,...']` */
  forwardTo?: NonNullable<Overrides["forwardTo"]>;
  /** `--forward PATTERN=URL ...` (then a `--forward-to URL` is the last route, and this holds it): first match wins. */
  forward?: NonNullable<Overrides["forward"]>;
  /** Stop gracefully once this process has ended (a test suite that started Mailroom and was killed). */
  parentPid?: number;
};

export type Command =
  | ({ kind: "serve" | "check-config" | "healthcheck" | "migrate"; url?: string } & ServeOptions)
  | ({ kind: "listen"; relay: { url: string; channel: string; token: string; insecure?: boolean } } & ServeOptions)
  | { kind: "user-add"; email: string; role: "admin" | "member"; passwordStdin: boolean; config?: string }
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "error"; message: string };

/** The flags of each command, in the order "did you mean" weighs them. */
const SERVE_FLAGS: FlagSpec = {
  config: "value",
  host: "value",
  port: "value",
  "log-format": "value",
  "forward-to": "value",
  forward: "multi",
  channel: "value",
  "parent-pid": "value",
  resign: "value",
  secret: "value",
  "private-key": "value",
  chaos: "value",
  quiet: "bool",
};
const FLAGS: Record<"serve" | "check-config" | "healthcheck" | "migrate", FlagSpec> = {
  serve: SERVE_FLAGS,
  "check-config": { config: "value" },
  healthcheck: { config: "value", url: "value" },
  migrate: { config: "value" },
};

/** The values serve refuses, as they come (a later mistake is not reached). */
const SERVE_CHECKS: Record<string, (value: string) => string | undefined> = {
  "log-format": (v) => (v === "text" || v === "json" ? undefined : `--log-format: must be text or json, not ${v}`),
  "parent-pid": (v) => (parsePid(v) === undefined ? `--parent-pid: not a process id: ${v}` : undefined),
  forward: routeProblem,
  port: (v) => (Number.isInteger(Number(v)) && Number(v) >= 0 && Number(v) <= 65535 ? undefined : `--port: not a port: ${v}`),
};

/** Parses argv (without the runtime and script); never throws. `env` gives $MAILROOM_SIGN_SECRET for --resign. */
export function parseArgs(argv: readonly string[], env: Record<string, string | undefined> = process.env): Command {
  const args = [...argv];
  if (args.includes("--help") || args.includes("-h") || args[0] === "help") return { kind: "help" };
  if (args.includes("--version") || args.includes("-v")) return { kind: "version" };
  if (args[0] === "user") return parseUserAdd(args.slice(1));
  if (args[0] === "listen") return parseListen(args.slice(1), env);
  let kind = "serve" as keyof typeof FLAGS;
  if (args[0] === "serve" || args[0] === "check-config" || args[0] === "healthcheck" || args[0] === "migrate") kind = args.shift() as typeof kind;
  else if (args[0] !== undefined && !args[0].startsWith("-")) return { kind: "error", message: `unknown command: ${args[0]}` };
  const known = Object.keys(FLAGS[kind]).map((k) => `--${k}`);
  const parsed = usage(() =>
    parseFlags(args, FLAGS[kind], {
      notAFlag: (arg) => `unexpected argument: ${arg}`,
      unknown: (name) => `unknown flag for ${kind}: ${name}${didYouMean(name, known)}`,
      check: (name, value) => SERVE_CHECKS[name]?.(value),
    }),
  );
  if ("message" in parsed) return parsed;
  const { config, url, host, port, channel } = parsed.values;
  const out: { kind: typeof kind; url?: string } & ServeOptions = { kind };
  if (config !== undefined) out.config = config;
  if (url !== undefined) out.url = url;
  if (parsed.bools.has("quiet")) out.quiet = true;
  const logFormat = parsed.values["log-format"];
  if (logFormat !== undefined) out.logFormat = logFormat as "text" | "json";
  const forwardTo = parsed.values["forward-to"];
  if (forwardTo !== undefined || channel !== undefined) out.forwardTo = { url: forwardTo ?? "", ...(channel !== undefined ? { channel } : {}) };
  if (host !== undefined) out.host = host;
  const parentPid = parsed.values["parent-pid"];
  if (parentPid !== undefined) out.parentPid = parsePid(parentPid);
  if (port !== undefined) out.port = Number(port);
  const routes = parsed.multi.forward?.map(forwardRoute);
  if (routes && out.forwardTo?.url) routes.push({ pattern: "*", url: out.forwardTo.url, flag: "--forward-to" });
  if (routes) (out.forward = { routes, ...(channel !== undefined ? { channel } : {}) }), delete out.forwardTo;
  if (out.forwardTo && !out.forwardTo.url) return { kind: "error", message: "--channel is only used with --forward-to URL or --forward" };
  const delivery = deliveryFlags(
    { ...parsed.values, secret: parsed.values.secret ?? (parsed.values["private-key"] === undefined ? env.MAILROOM_SIGN_SECRET : undefined) },
    parsed.values.secret,
  );
  if (typeof delivery === "string") return { kind: "error", message: delivery };
  if (Object.keys(delivery).length > 0) {
    // --resign and --chaos apply to every forward the flags make: --forward-to's, or each --forward route's.
    const target = out.forward ?? out.forwardTo;
    if (!target) return { kind: "error", message: `--${Object.keys(delivery)[0]} is only used with --forward-to URL or --forward` };
    Object.assign(target, delivery);
  }
  return out;
}

/**
 * `--resign KIND --secret S` (or `--private-key @FILE|PEM`) and `--chaos 'duplicate=0.2,seed=42'`:
 * the forward's `resign` and `chaos` tables (the config loader checks them), or what is wrong.
 */
function deliveryFlags(
  values: Record<string, string | undefined>,
  flagSecret: string | undefined,
): { resign?: Record<string, string>; chaos?: Record<string, unknown> } | string {
  const { resign, secret, chaos } = values;
  const pem = values["private-key"];
  const out: { resign?: { kind: string; secret?: string; private_key?: string }; chaos?: Record<string, unknown> } = {};
  if (resign !== undefined) {
    if (secret === undefined && pem === undefined)
      return `--resign ${resign} needs --secret S (or $MAILROOM_SIGN_SECRET), or --private-key @FILE for a provider that signs with a key pair`;
    out.resign = { kind: resign, ...(secret !== undefined && { secret }) };
    if (pem !== undefined) {
      try {
        out.resign.private_key = pem.startsWith("@") ? readFileSync(pem.slice(1), "utf8") : pem;
      } catch (error) {
        return `--private-key: cannot read ${pem.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
      }
    }
  } else if (flagSecret !== undefined || pem !== undefined) return `--${flagSecret !== undefined ? "secret" : "private-key"} is only used with --resign KIND`;
  if (chaos !== undefined) {
    try {
      out.chaos = parseChaosFlag(chaos);
    } catch (error) {
      return `--chaos: ${(error as Error).message}`;
    }
  }
  return out;
}

/** What `parse` returns, or the message of the UsageError it throws. */
function usage<T>(parse: () => T): T | { kind: "error"; message: string } {
  try {
    return parse();
  } catch (error) {
    if (error instanceof UsageError) return { kind: "error", message: error.message };
    throw error;
  }
}

/** A process id as --parent-pid or MAILROOM_PARENT_PID gives it: a positive decimal integer. */
export function parsePid(value: string): number | undefined {
  return /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2 ** 31 ? Number(value) : undefined;
}

/** `listen URL --channel C --token T [--forward-to URL] [--insecure]` and serve's other flags (their --channel is the relayed one). */
function parseListen(args: string[], env: Record<string, string | undefined>): Command {
  const url = args.shift();
  if (!url || url.startsWith("-"))
    return { kind: "error", message: "listen: give the upstream Mailroom's URL, as mailroom listen https://hooks.example.com --channel C --token T" };
  if (!/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/.test(url)) return { kind: "error", message: `listen: not an http:// or https:// URL: ${url}` };
  const taken = usage(() => takeFlags(args, { channel: "value", token: "value", insecure: "bool" }));
  if ("message" in taken) return taken;
  const { rest } = taken;
  const { channel, token } = taken.values;
  const insecure = taken.bools.has("insecure");
  if (!channel) return { kind: "error", message: "listen: --channel NAME says which upstream channel to receive" };
  if (!token) return { kind: "error", message: "listen: --token TOKEN: a relay key of upstream (mailroom token create --scope relay there)" };
  const plain = plainUpstreamProblem(url);
  if (plain && !insecure) return { kind: "error", message: `listen: ${url} is plain ${plain} with --insecure` };
  const serve = parseArgs(["serve", ...rest], env);
  if (serve.kind === "error") return { ...serve, message: serve.message.replace("for serve:", "for listen:") };
  if (serve.kind !== "serve") return serve;
  const forwardTo = serve.forwardTo && { ...serve.forwardTo, channel };
  const forward = serve.forward && { ...serve.forward, channel };
  return { ...serve, kind: "listen", relay: { url, channel, token, ...(insecure ? { insecure } : {}) }, forwardTo, ...(forward ? { forward } : {}) };
}

/** `user add EMAIL [--role admin|member] [--password-stdin] [--config FILE]` */
function parseUserAdd(args: string[]): Command {
  const sub = args.shift();
  if (sub !== "add")
    return { kind: "error", message: sub === undefined ? "user needs a subcommand: add" : `unknown user subcommand: ${sub}${didYouMean(sub, ["add"])}` };
  const email = args.shift();
  if (!email || email.startsWith("-")) return { kind: "error", message: "user add: give the user's e-mail address" };
  const flags = ["--role", "--password-stdin", "--config"];
  const parsed = usage(() =>
    parseFlags(
      args,
      { role: "value", "password-stdin": "bool", config: "value" },
      {
        notAFlag: (arg) => `unknown argument: ${arg}`,
        unknown: (_, arg) => `unknown argument: ${arg}${didYouMean(arg, flags)}`,
        check: (name, v) => (name !== "role" || v === "admin" || v === "member" ? undefined : `--role: must be admin or member, not ${v}`),
      },
    ),
  );
  if ("message" in parsed) return parsed;
  const { role = "member", config } = parsed.values;
  const out: Extract<Command, { kind: "user-add" }> = {
    kind: "user-add",
    email,
    role: role as "admin" | "member",
    passwordStdin: parsed.bools.has("password-stdin"),
  };
  if (config !== undefined) out.config = config;
  return out;
}
