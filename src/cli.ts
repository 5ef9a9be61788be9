/**
 * The arguments of the commands that read the config (serve, check-config, migrate, healthcheck,
 * user add), as run.ts takes them. Their usage lines are in cli/commands.ts.
 */
import { didYouMean } from "./lib/suggest";
import { plainUpstreamProblem } from "./lib/plain-upstream";

export type ServeOptions = {
  config?: string;
  port?: number;
  host?: string;
  quiet?: boolean;
  logFormat?: "text" | "json";
  forwardTo?: { url: string; channel?: string };
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

const SERVE_FLAGS = ["--config", "--host", "--port", "--log-format", "--forward-to", "--channel", "--parent-pid"];

/** Parses argv (without the runtime and script); never throws. */
export function parseArgs(argv: readonly string[]): Command {
  const args = [...argv];
  if (args.includes("--help") || args.includes("-h") || args[0] === "help") return { kind: "help" };
  if (args.includes("--version") || args.includes("-v")) return { kind: "version" };
  if (args[0] === "user") return parseUserAdd(args.slice(1));
  if (args[0] === "listen") return parseListen(args.slice(1));
  let kind = "serve" as "serve" | "check-config" | "healthcheck" | "migrate";
  if (args[0] === "serve" || args[0] === "check-config" || args[0] === "healthcheck" || args[0] === "migrate") kind = args.shift() as typeof kind;
  else if (args[0] !== undefined && !args[0].startsWith("-")) return { kind: "error", message: `unknown command: ${args[0]}` };
  const bools = kind === "serve" ? ["--quiet"] : [];
  /** Flags that take a value, per command. */
  const known = kind === "serve" ? SERVE_FLAGS : kind === "healthcheck" ? ["--config", "--url"] : ["--config"];
  const out: { kind: typeof kind; url?: string } & ServeOptions = { kind };
  while (args.length > 0) {
    const flag = args.shift()!;
    if (flag === "--quiet" && kind === "serve") {
      out.quiet = true;
      continue;
    }
    const [name, inline] = flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    if (!name.startsWith("-")) return { kind: "error", message: `unexpected argument: ${flag}` };
    if (!known.includes(name)) return { kind: "error", message: `unknown flag for ${kind}: ${name}${didYouMean(name, [...known, ...bools])}` };
    const value = inline ?? args.shift();
    if (value === undefined) return { kind: "error", message: `${name} needs a value` };
    if (name === "--config") out.config = value;
    else if (name === "--url" && kind === "healthcheck") out.url = value;
    else if (name === "--forward-to" && kind === "serve") out.forwardTo = { ...out.forwardTo, url: value };
    else if (name === "--channel" && kind === "serve") out.forwardTo = { url: "", ...out.forwardTo, channel: value };
    else if (name === "--log-format" && kind === "serve") {
      if (value !== "text" && value !== "json") return { kind: "error", message: `--log-format: must be text or json, not ${value}` };
      out.logFormat = value;
    } else if (name === "--host" && kind === "serve") out.host = value;
    else if (name === "--parent-pid" && kind === "serve") {
      const pid = parsePid(value);
      if (pid === undefined) return { kind: "error", message: `--parent-pid: not a process id: ${value}` };
      out.parentPid = pid;
    } else if (name === "--port" && kind === "serve") {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) return { kind: "error", message: `--port: not a port: ${value}` };
      out.port = port;
    } else return { kind: "error", message: `unknown argument: ${flag}` };
  }
  if (out.forwardTo && !out.forwardTo.url) return { kind: "error", message: "--channel is only used with --forward-to URL" };
  return out;
}

/** A process id as --parent-pid or MAILROOM_PARENT_PID gives it: a positive decimal integer. */
export function parsePid(value: string): number | undefined {
  return /^[1-9][0-9]{0,9}$/.test(value) && Number(value) <= 2 ** 31 ? Number(value) : undefined;
}

/** `listen URL --channel C --token T [--forward-to URL] [--insecure]` and serve's other flags (their --channel is the relayed one). */
function parseListen(args: string[]): Command {
  const url = args.shift();
  if (!url || url.startsWith("-"))
    return { kind: "error", message: "listen: give the upstream Mailroom's URL, as mailroom listen https://hooks.example.com --channel C --token T" };
  if (!/^https?:\/\/[^\s/?#]+(?:\/[^\s?#]*)?$/.test(url)) return { kind: "error", message: `listen: not an http:// or https:// URL: ${url}` };
  let channel: string | undefined;
  let token: string | undefined;
  let insecure = false;
  const rest: string[] = [];
  while (args.length > 0) {
    const flag = args.shift()!;
    if (flag === "--insecure") {
      insecure = true;
      continue;
    }
    const [name, inline] = flag.includes("=") ? [flag.slice(0, flag.indexOf("=")), flag.slice(flag.indexOf("=") + 1)] : [flag, undefined];
    if (name !== "--channel" && name !== "--token") {
      rest.push(flag);
      continue;
    }
    const value = inline ?? args.shift();
    if (value === undefined) return { kind: "error", message: `${name} needs a value` };
    if (name === "--channel") channel = value;
    else token = value;
  }
  if (!channel) return { kind: "error", message: "listen: --channel NAME says which upstream channel to receive" };
  if (!token) return { kind: "error", message: "listen: --token TOKEN: a relay key of upstream (mailroom token create --scope relay there)" };
  const plain = plainUpstreamProblem(url);
  if (plain && !insecure) return { kind: "error", message: `listen: ${url} is plain ${plain} with --insecure` };
  const serve = parseArgs(["serve", ...rest]);
  if (serve.kind === "error") return { ...serve, message: serve.message.replace("for serve:", "for listen:") };
  if (serve.kind !== "serve") return serve;
  const forwardTo = serve.forwardTo && { url: serve.forwardTo.url, channel };
  return { ...serve, kind: "listen", relay: { url, channel, token, ...(insecure ? { insecure } : {}) }, forwardTo };
}

/** `user add EMAIL [--role admin|member] [--password-stdin] [--config FILE]` */
function parseUserAdd(args: string[]): Command {
  const sub = args.shift();
  if (sub !== "add")
    return { kind: "error", message: sub === undefined ? "user needs a subcommand: add" : `unknown user subcommand: ${sub}${didYouMean(sub, ["add"])}` };
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
    } else
      return { kind: "error", message: `unknown argument: ${flag}${flag.startsWith("-") ? didYouMean(flag, ["--role", "--password-stdin", "--config"]) : ""}` };
  }
  return out;
}
