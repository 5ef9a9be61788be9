import { dirname as pathDirname, resolve as pathResolve } from "node:path";
import { Value } from "@sinclair/typebox/value";
import type { TObject, TSchema } from "@sinclair/typebox";
import { ConfigSchema, LOCAL_KEY_LABEL, type CompiledSchema, type Config, type ConfigInput } from "./schema";
import { HANDLER_CHECKS, HANDLER_KINDS, type HandlerConfig } from "./handlers";
import { linkLocalProblem } from "./forward-target";
import { urlPatternProblem } from "./url-pattern";
import { dedupProblems, responseProblems } from "./misbehave";
import { postgresUrlProblem } from "./postgres-url";
import { ConfigError, type Problem } from "./problems";
import { alertProblems } from "./alerts";
import { notifierProblems } from "./notifiers";
import type { ConfigChecks, HookMatcher, WhenChecks } from "./checks";
import { didYouMean } from "../lib/suggest";
import { plainUpstreamProblem } from "../lib/plain-upstream";
import { parseToml as parseTomlText, TomlError } from "../lib/toml";

export { ConfigError, type Problem } from "./problems";

export type Overrides = {
  host?: string;
  port?: number;
  /** `--resign KIND --secret S` and `--chaos 'duplicate=0.2,...'` apply to the forward --forward-to adds (to each route's, with --forward). */
  forwardTo?: { url: string; channel?: string } & Delivery;
  /**
   * `serve|listen --forward PATTERN=URL ...` (and a `--forward-to URL` given with them, last):
   * forward handlers of which each hook goes to the first that wants it, for channel C or every channel.
   */
  forward?: { routes: ForwardRoute[]; channel?: string } & Delivery;
  /** `mailroom listen URL --channel C --token T`: one more [[relays]] entry. */
  relay?: { url: string; channel: string; token: string; insecure?: boolean };
};

/**
 * The retries of `--forward-to`: an app being developed restarts (a build, a crash, a debugger)
 * for minutes, not seconds. Backoff 1 s doubling up to 15 s, 30 attempts: about 6.5 minutes of the
 * app being down before a hook is failed, and an app back up gets the hook within 15 s. The
 * [[handlers]] default (5 attempts, about 15 s) suits a service that is up.
 */
export const FORWARD_TO_PATIENCE = { max_attempts: 30, backoff: { initial: "1s", max: "15s" } };

/** The name of the forward handler `serve --forward-to` adds. */
export const FORWARD_TO = "forward-to";

/** One route of `--forward PATTERN=URL`: its pattern and url, the `when` query the pattern stands for (none: every hook), and the flag as problems name it. */
/** What `--resign` and `--chaos` add to the forward handlers the flags make. */
export type Delivery = { resign?: { kind: string; secret?: string; private_key?: string }; chaos?: Record<string, unknown> };

export type ForwardRoute = { pattern: string; url: string; when?: string; flag: string };

/** The names of the handlers of `--forward-to` and `--forward` routes, in order: forward-to, forward-to-2, ... */
export const forwardRouteName = (i: number): string => (i === 0 ? FORWARD_TO : `${FORWARD_TO}-${i + 1}`);

/**
 * `serve --forward-to URL [--channel C]`, or `--forward PATTERN=URL` routes: a forward handler
 * per route (with FORWARD_TO_PATIENCE) for channel C, or for every channel (the declared ones and
 * [hooks] default_handlers), added to the tree before it is validated, as if the file said so.
 * Returns, by each handler's key path, the flag its problems name instead.
 */
function addForwardTo(
  tree: Record<string, any>,
  routes: ForwardRoute[],
  channel: string | undefined,
  { resign, chaos }: Delivery,
  section: (k: string) => any,
): Map<string, string> {
  const list = (Array.isArray(tree.handlers) ? tree.handlers : (tree.handlers = [])) as unknown[];
  const flags = new Map<string, string>();
  const names = routes.map((r, i) => {
    const name = forwardRouteName(i);
    const entry = {
      name,
      kind: "forward",
      url: r.url,
      ...(r.when ? { when: r.when } : {}),
      ...structuredClone(FORWARD_TO_PATIENCE),
      ...(resign && { resign }),
      ...(chaos && { chaos }),
    };
    const at = list.push(entry) - 1;
    flags.set(`handlers[${at}]`, r.flag);
    return name;
  });
  const channels = (Array.isArray(tree.channels) ? tree.channels : (tree.channels = [])) as Record<string, any>[];
  const add = (c: Record<string, any>) => (c.handlers = [...(Array.isArray(c.handlers) ? c.handlers : []), ...names]);
  if (channel !== undefined) {
    let entry = channels.find((c) => c?.name === channel);
    if (!entry) channels.push((entry = { name: channel }));
    add(entry);
    return flags;
  }
  for (const c of channels) if (c && typeof c === "object") add(c);
  const hooks = section("hooks");
  hooks.default_handlers = [...(Array.isArray(hooks.default_handlers) ? hooks.default_handlers : []), ...names];
  return flags;
}

/**
 * The `--forward` routes' matchers, first match wins: a route wants a hook its own `when` wants
 * (every hook without one) and no earlier route wants.
 */
function firstMatchWins(handlers: HandlerConfig[], count: number): void {
  const earlier: HookMatcher[] = [];
  for (let i = 0; i < count; i++) {
    const handler = handlers.find((h) => h.name === forwardRouteName(i));
    if (!handler) continue;
    const own = handler.when;
    const before = [...earlier];
    if (own) earlier.push(own);
    else earlier.push({ query: "", matches: async () => true });
    if (before.length === 0) continue;
    handler.when = {
      query: own?.query ?? "",
      async matches(hook) {
        for (const m of before) if (await m.matches(hook)) return false;
        return own ? own.matches(hook) : true;
      },
    };
  }
}
export type Env = Record<string, string | undefined>;

/** `/a/0/b` -> `a[0].b` */
function keyPath(pointer: string, prefix = ""): string {
  let out = prefix;
  for (const part of pointer.split("/").slice(1)) {
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

/** The problems of `value` against `schema`, each with its key path under `prefix` (unknown keys with "did you mean"). */
export function check(schema: TSchema, value: unknown, prefix: string): Problem[] {
  const problems: Problem[] = [];
  for (const e of Value.Errors(schema, value)) {
    const path = keyPath(e.path, prefix);
    if (e.message === "Unexpected property") {
      // TypeBox names the object's schema: its properties are the keys that were possible here.
      const known = Object.keys((e.schema as { properties?: Record<string, unknown> }).properties ?? {});
      problems.push({ path, message: `unknown key${didYouMean(e.path.slice(e.path.lastIndexOf("/") + 1), known)}` });
      continue;
    }
    // A missing required key is reported on the key, not on its parent.
    if (e.message.startsWith("Expected required property")) continue;
    problems.push({ path, message: describe(e.schema, e.message) });
  }
  // TypeBox reports a missing key once as "expected required property" and again as a type error.
  return dedupe(problems);
}

function describe(schema: TSchema, message: string): string {
  if (typeof schema.problem === "string") return schema.problem;
  const options = (schema.anyOf as TSchema[] | undefined)?.map((s) => s.const);
  if (options?.every((o) => o !== undefined)) return `must be one of ${options.map((o) => JSON.stringify(o)).join(", ")}`;
  return message.toLowerCase();
}

function dedupeExact(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => (seen.has(`${p.path}\n${p.message}`) ? false : (seen.add(`${p.path}\n${p.message}`), true)));
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => (seen.has(p.path) ? false : (seen.add(p.path), true)));
}

/** Resolves `X_env = "VAR"` into `X` everywhere in the tree; never logs the values. */
function resolveEnvSecrets(node: unknown, env: Env, path: string, problems: Problem[]): void {
  if (Array.isArray(node)) {
    node.forEach((v, i) => {
      resolveEnvSecrets(v, env, `${path}[${i}]`, problems);
    });
    return;
  }
  if (!node || typeof node !== "object") return;
  const obj = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(obj)) {
    const here = path ? `${path}.${key}` : key;
    if (key.endsWith("_env") && typeof value === "string") {
      const base = key.slice(0, -4);
      if (obj[base] !== undefined) problems.push({ path: here, message: `give either ${base} or ${key}, not both` });
      else if (env[value] === undefined || env[value] === "") problems.push({ path: here, message: `environment variable ${value} is not set` });
      else obj[base] = env[value];
    } else resolveEnvSecrets(value, env, here, problems);
  }
}

/**
 * The problems of guard or handler entries against their kind's schema (defaults are filled in
 * place), then, for an entry its schema accepts, against its kind's check in `more` if any.
 * `others`: what an unknown kind's message names when the kinds are many (see unknownKind).
 */
export function checkKinded(
  list: unknown[],
  kinds: Record<string, TObject>,
  section: string,
  more: Record<string, (entry: Record<string, unknown>) => Problem[]> = {},
  others: readonly string[] = [],
): Problem[] {
  const problems: Problem[] = [];
  const names = new Set<string>();
  list.forEach((entry, i) => {
    const e = entry as { name: string; kind: string };
    const at = `${section}[${i}]`;
    if (names.has(e.name)) problems.push({ path: `${at}.name`, message: `duplicate name "${e.name}"` });
    names.add(e.name);
    const schema = kinds[e.kind];
    if (!schema) {
      problems.push({ path: `${at}.kind`, message: unknownKind(e.kind, Object.keys(kinds), section, others) });
      return;
    }
    Value.Default(schema, entry);
    const found = check(schema, entry, at);
    problems.push(...found);
    const extra = more[e.kind];
    if (found.length === 0 && extra)
      for (const p of extra(entry as Record<string, unknown>)) problems.push({ path: p.path ? `${at}.${p.path}` : at, message: p.message });
  });
  return problems;
}

/**
 * `unknown kind "githubb" (did you mean github?)`; with no close name, the kinds when they are
 * few, else where to find them (the guard kinds are some 140): `mailroom providers`, and the
 * `others` besides its providers.
 */
export function unknownKind(kind: unknown, known: readonly string[], section: string, others: readonly string[] = []): string {
  const typed = String(kind);
  const near = typeof kind === "string" ? didYouMean(typed, known) : "";
  if (near) return `unknown kind "${typed}"${near}`;
  if (known.length <= 12) return `unknown kind "${typed}" (one of: ${[...known].sort().join(", ") || "none available"})`;
  const noun = section.replace(/s$/, "");
  return `unknown kind "${typed}": none of the ${known.length} ${noun} kinds is close (\`mailroom providers\` lists the providers; the others are ${[...others].sort().join(", ")})`;
}

/** A host name or address that only this machine reaches. */
export const isLoopback = (host: string): boolean => /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|\[::1\])$/i.test(host);

/** The host of `[metrics] listen` ("host:port", or "[v6]:port"; decoded or not yet). */
const listenHost = (l: string | { host: string }): string => (typeof l === "string" ? l.slice(0, l.lastIndexOf(":")).replace(/^\[(.*)\]$/, "$1") : l.host);

/** What the listener checks read of a config, loaded or not. */
type Listeners = { server: Pick<ConfigInput["server"], "host" | "public">; metrics: { listen?: string | { host: string } } };

/** Every address Mailroom listens on: the server, the public listener, the metrics listener. */
export function listenerHosts(config: Listeners): string[] {
  return [
    config.server.host,
    ...(config.server.public ? [config.server.public.host] : []),
    ...(config.metrics.listen ? [listenHost(config.metrics.listen)] : []),
  ];
}

/** Why `[dashboard] auth = "none"` is refused for this config, undefined when it is allowed. */
export function authNoneRefusal(config: Listeners & { users: readonly unknown[] }): string | undefined {
  const open = listenerHosts(config).find((h) => !isLoopback(h));
  if (open !== undefined) return `"none" needs every listener on a loopback address (127.0.0.1, ::1, localhost); ${open} is not: use "password"`;
  if (config.users.length > 0) return '"none" cannot be used with [[users]]: they sign in; remove auth or use "password"';
  return undefined;
}

/**
 * `[dashboard] auth` as the server applies it. Left unset it is "none" on a laptop (every listener
 * on a loopback address, no [[users]], and no user stored: an install whose admin was made through
 * the setup link keeps requiring sign-in), "password" otherwise.
 */
export function effectiveAuth(
  config: Listeners & { users: readonly unknown[]; dashboard: { auth?: "password" | "none" } },
  storedUsers: number,
): "password" | "none" {
  if (config.dashboard.auth !== undefined) return config.dashboard.auth;
  return storedUsers === 0 && authNoneRefusal(config) === undefined ? "none" : "password";
}

function crossCheck(config: ConfigInput): Problem[] {
  const problems: Problem[] = [];
  if (config.dashboard.auth === "none") {
    const refusal = authNoneRefusal(config);
    if (refusal) problems.push({ path: "dashboard.auth", message: refusal });
  }
  const guards = new Set(config.guards.map((g) => g.name));
  const handlers = new Set(config.handlers.map((h) => h.name));
  const unknownGuard = (g: string) => `unknown guard "${g}"${didYouMean(g, [...guards])}`;
  const unknownHandler = (h: string) => `unknown handler "${h}"${didYouMean(h, [...handlers])}`;
  config.hooks.default_guards.forEach((g, i) => {
    if (!guards.has(g)) problems.push({ path: `hooks.default_guards[${i}]`, message: unknownGuard(g) });
  });
  config.hooks.default_handlers.forEach((h, i) => {
    if (!handlers.has(h)) problems.push({ path: `hooks.default_handlers[${i}]`, message: unknownHandler(h) });
  });
  const channels = new Set<string>();
  config.channels.forEach((c, i) => {
    if (channels.has(c.name)) problems.push({ path: `channels[${i}].name`, message: `duplicate channel "${c.name}"` });
    channels.add(c.name);
    c.guards.forEach((g, j) => {
      if (!guards.has(g)) problems.push({ path: `channels[${i}].guards[${j}]`, message: unknownGuard(g) });
    });
    c.handlers.forEach((h, j) => {
      if (!handlers.has(h)) problems.push({ path: `channels[${i}].handlers[${j}]`, message: unknownHandler(h) });
    });
    if (c.response) problems.push(...responseProblems(c.response, `channels[${i}].response`));
    if (c.dedup) problems.push(...dedupProblems(c.dedup, `channels[${i}].dedup`));
  });
  const labels = new Set<string>();
  config.api_keys.forEach((k, i) => {
    if (labels.has(k.label)) problems.push({ path: `api_keys[${i}].label`, message: `duplicate label "${k.label}"` });
    labels.add(k.label);
    // A configured "local" key would silently replace the generated one the CLI reads.
    if (k.label === LOCAL_KEY_LABEL) {
      problems.push({
        path: `api_keys[${i}].label`,
        message: `"${LOCAL_KEY_LABEL}" is reserved for the token Mailroom generates for this machine (mailroom token show|reset); choose another label`,
      });
    }
    // An unset token_env is a problem of its own (reported by resolveEnvSecrets), not a missing token.
    const given = [k.token ?? k.token_env, k.token_sha256].filter((v) => v !== undefined).length;
    if (given !== 1) problems.push({ path: `api_keys[${i}]`, message: "give exactly one of token, token_env, token_sha256" });
    if (k.scopes && !k.channels)
      problems.push({
        path: `api_keys[${i}].channels`,
        message: k.scopes.includes("relay") ? "a relay key names the channels it may relay" : "a key scoped to channels names them (glob patterns)",
      });
    if (k.channels && !k.scopes)
      problems.push({
        path: `api_keys[${i}].channels`,
        message: 'only a key with scopes ("relay", "read") has channels (a key without scopes reaches every channel)',
      });
    const scopes = k.scopes ?? [];
    if (scopes.includes("relay") && scopes.length > 1) problems.push({ path: `api_keys[${i}].scopes`, message: 'a relay key has scopes = ["relay"] alone' });
    if (scopes.includes("act") && !scopes.includes("read"))
      problems.push({ path: `api_keys[${i}].scopes`, message: 'a key that acts also reads: scopes = ["read", "act"]' });
    if (scopes.includes("relay") && k.channels?.some((c) => c.includes("*")))
      problems.push({ path: `api_keys[${i}].channels`, message: "a relay key names its channels, without *" });
  });
  config.relays.forEach((r, i) => {
    // An unset token_env is reported by resolveEnvSecrets.
    if ((r.token ?? r.token_env) === undefined) problems.push({ path: `relays[${i}]`, message: "give token or token_env: a relay key of upstream" });
    const plain = r.insecure ? undefined : plainUpstreamProblem(r.url);
    if (plain) problems.push({ path: `relays[${i}].url`, message: `plain ${plain} with insecure = true` });
  });
  const emails = new Set<string>();
  config.users.forEach((u, i) => {
    if (emails.has(u.email.toLowerCase())) problems.push({ path: `users[${i}].email`, message: `duplicate user "${u.email}"` });
    emails.add(u.email.toLowerCase());
    const given = [u.password, u.password_hash].filter((v) => v !== undefined).length;
    if (given !== 1) problems.push({ path: `users[${i}]`, message: "give exactly one of password_hash, password_env" });
    if (u.channels && u.role === "admin")
      problems.push({ path: `users[${i}].channels`, message: "only a member can be limited to channels (an admin manages every one)" });
  });
  return problems;
}

/**
 * Where Mailroom may send: a forward handler's host is not link-local nor a metadata service (by
 * its name or address; the runner checks what the name resolves to at each attempt) unless
 * `[server] allow_link_local`, and `[dashboard] member_send_to` holds URL patterns.
 */
function outboundProblems(config: ConfigInput): Problem[] {
  const problems: Problem[] = [];
  if (!config.server.allow_link_local)
    config.handlers.forEach((h, i) => {
      const url = (h as { url?: unknown }).url;
      const problem = h.kind === "forward" && typeof url === "string" ? linkLocalProblem(url) : undefined;
      if (problem) problems.push({ path: `handlers[${i}].url`, message: problem });
    });
  config.dashboard.member_send_to.forEach((pattern, i) => {
    const problem = urlPatternProblem(pattern);
    if (problem) problems.push({ path: `dashboard.member_send_to[${i}]`, message: problem });
  });
  return problems;
}

/**
 * `[storage] url` as the driver will read it (config/postgres-url.ts), once the schema accepted it.
 * Its problems (the schema's too) say which environment variable the URL came from, if one did.
 */
function storageUrlProblems(config: ConfigInput, env: Env, problems: Problem[]): Problem[] {
  const url = config.storage?.url;
  const at = "storage.url";
  const problem = typeof url === "string" && !problems.some((p) => p.path === at) ? postgresUrlProblem(url) : undefined;
  const all = problem ? [...problems, { path: at, message: problem }] : problems;
  const from = env.MAILROOM_DATABASE_URL ? "MAILROOM_DATABASE_URL" : config.storage?.url_env;
  return from ? all.map((p) => (p.path === at ? { path: at, message: `${p.message}; the url comes from the environment variable ${from}` } : p)) : all;
}

/**
 * Builds the config from defaults < file < environment < command line and validates it once,
 * with the services' own checks in `checks`. Throws ConfigError listing every problem with its key path.
 */
export function buildConfig(raw: unknown, env: Env, overrides: Overrides, checks: ConfigChecks, baseDir?: string): Config {
  const problems: Problem[] = [];
  const tree = (raw && typeof raw === "object" ? structuredClone(raw) : {}) as Record<string, any>;
  const section = (k: string) => (tree[k] && typeof tree[k] === "object" ? tree[k] : (tree[k] = {}));
  if (env.MAILROOM_HOST) section("server").host = env.MAILROOM_HOST;
  if (env.MAILROOM_PORT) section("server").port = Number(env.MAILROOM_PORT);
  if (env.MAILROOM_DB) section("storage").path = env.MAILROOM_DB;
  if (env.MAILROOM_DURABILITY) section("storage").durability = env.MAILROOM_DURABILITY;
  if (env.MAILROOM_DATABASE_URL) {
    const storage = section("storage");
    delete storage.url_env;
    storage.url = env.MAILROOM_DATABASE_URL;
  }
  if (overrides.host !== undefined) section("server").host = overrides.host;
  if (overrides.port !== undefined) section("server").port = overrides.port;
  const routes = overrides.forward?.routes ?? (overrides.forwardTo ? [{ pattern: "*", url: overrides.forwardTo.url, flag: "--forward-to" }] : []);
  const given = overrides.forward ?? overrides.forwardTo;
  const flags = addForwardTo(tree, routes, given?.channel, { resign: given?.resign, chaos: given?.chaos }, section);
  if (overrides.relay) {
    const relays = (Array.isArray(tree.relays) ? tree.relays : (tree.relays = [])) as unknown[];
    const { url, channel, token, insecure } = overrides.relay;
    relays.push({ url, channels: [channel], token, ...(insecure ? { insecure } : {}) });
  }
  resolveEnvSecrets(tree, env, "", problems);
  const config = Value.Default(ConfigSchema, tree) as ConfigInput;
  problems.push(...check(ConfigSchema, config, ""));
  // Every check runs, whatever the others found: a check whose input is malformed (already a
  // problem above) throws and is skipped, and the guards are built only from entries without problems.
  const safely = (run: () => Problem[]) => {
    try {
      return run();
    } catch {
      return [];
    }
  };
  const list = <T>(v: T[]): T[] => (Array.isArray(v) ? v : []);
  problems.push(...safely(() => checkKinded(list(config.guards), checks.guards.kinds, "guards", {}, checks.guards.others)));
  problems.push(...safely(() => checkKinded(list(config.handlers), HANDLER_KINDS, "handlers", HANDLER_CHECKS)));
  problems.push(...safely(() => whenProblems(list(config.handlers), checks.when)));
  problems.push(...safely(() => tagRuleProblems(list(config.tag_rules), checks.when)));
  problems.push(...safely(() => crossCheck(config)));
  problems.push(...safely(() => outboundProblems(config)));
  const notifiers = list(config.notifiers as { name?: unknown }[]).map((n) => String(n?.name));
  problems.push(...safely(() => notifierProblems(list(config.notifiers) as Record<string, unknown>[])));
  problems.push(...safely(() => alertProblems(list(config.alerts) as Record<string, unknown>[], notifiers, checks.when)));
  const clean = (at: string) => !problems.some((p) => p.path === at || p.path.startsWith(`${at}.`) || p.path.startsWith(`${at}[`));
  list(config.guards).forEach((guard, i) => {
    if (!clean(`guards[${i}]`)) return;
    // What a schema cannot say (a secret or its _env given, CIDR blocks, whsec_ secrets...).
    for (const p of safely(() => checks.guards.problems(guard)))
      problems.push({ path: p.path ? `guards[${i}].${p.path}` : `guards[${i}]`, message: p.message });
  });
  problems.push(...safely(() => checks.translate(config.translate)));
  if (checks.resign) problems.push(...safely(() => resignProblems(config, checks.resign!, problems)));
  // A problem of a handler the flags added names the flag: --resign and --chaos their own keys.
  const all = storageUrlProblems(config, env, problems).map((p) => {
    const at = /^handlers\[\d+\]/.exec(p.path)?.[0];
    const flag = at === undefined ? undefined : flags.get(at);
    if (!flag || at === undefined) return p;
    for (const key of ["resign", "chaos"]) if (p.path.startsWith(`${at}.${key}`)) return { ...p, path: `--${key}${p.path.slice(`${at}.${key}`.length)}` };
    return { ...p, path: flag };
  });
  if (all.length > 0) throw new ConfigError(dedupeExact(all));
  const resolved = resolve(config, checks.when);
  firstMatchWins(resolved.handlers, routes.length);
  const channelSchemas = compileChannelSchemas(resolved, checks, baseDir);
  return channelSchemas ? { ...resolved, channelSchemas } : resolved;
}

/** A handler's `when` that does not parse, saying where (the search service's check, registered in `checks`). */
function whenProblems(handlers: unknown[], when: WhenChecks): Problem[] {
  const problems: Problem[] = [];
  handlers.forEach((h, i) => {
    const query = (h as { when?: unknown } | null)?.when;
    const problem = typeof query === "string" ? when.problem(query) : undefined;
    if (problem) problems.push({ path: `handlers[${i}].when`, message: problem });
  });
  return problems;
}

/** A `[[tag_rules]]` query that does not parse, saying where (as a handler's `when`). */
function tagRuleProblems(rules: unknown[], when: WhenChecks): Problem[] {
  const problems: Problem[] = [];
  rules.forEach((r, i) => {
    const query = (r as { query?: unknown } | null)?.query;
    const problem = typeof query === "string" && query !== "" ? when.problem(query) : undefined;
    if (problem) problems.push({ path: `tag_rules[${i}].query`, message: problem });
  });
  return problems;
}

/**
 * The `resign` tables of forward handlers and channels, against the check the composition
 * registered; a table already refused (a `secret_env` not set) is said once, not again as keyless.
 */
function resignProblems(config: ConfigInput, check: NonNullable<ConfigChecks["resign"]>, earlier: readonly Problem[]): Problem[] {
  const problems: Problem[] = [];
  const at = (path: string, table: unknown) => {
    if (!table || typeof table !== "object") return;
    if (earlier.some((p) => p.path === path || p.path.startsWith(`${path}.`))) return;
    for (const p of check(table as { kind: string })) problems.push({ path: p.path ? `${path}.${p.path}` : path, message: p.message });
  };
  config.handlers.forEach((h, i) => at(`handlers[${i}].resign`, (h as Record<string, unknown>).resign));
  config.channels.forEach((c, i) => at(`channels[${i}].resign`, c.resign));
  return problems;
}

/**
 * The one conversion of a config without problems into what the code uses: each value by its
 * schema (config/values.ts: durations to milliseconds, sizes to bytes, URL patterns compiled),
 * each handler by its kind's and its `when` compiled. Guards stay as written: createGuards converts them by their kind.
 */
function resolve(input: ConfigInput, when: WhenChecks): Config {
  const { handlers, tag_rules, ...rest } = Value.Decode(ConfigSchema, input);
  return {
    ...rest,
    handlers: handlers.map((h) => compileWhen(decodeKinded(HANDLER_KINDS, h), when) as HandlerConfig),
    tag_rules: tag_rules.map((r) => ({ query: r.query, tags: [...new Set(r.tags)], match: when.compile(r.query) })),
  };
}

/** A decoded handler entry with its `when` query compiled (one `when.problem` accepted). */
export function compileWhen(entry: Record<string, unknown>, when: WhenChecks): Record<string, unknown> {
  return typeof entry.when === "string" ? { ...entry, when: when.compile(entry.when) } : entry;
}

/** A guard or handler entry its kind's schema accepted (checkKinded found no problem), converted by that schema. */
export function decodeKinded(kinds: Record<string, TObject>, entry: Record<string, unknown>): Record<string, unknown> {
  return Value.Decode(kinds[entry.kind as string]!, entry) as Record<string, unknown>;
}

/** Parses TOML text (lib/toml.ts); a syntax error becomes a ConfigError naming the file. */
export function parseToml(text: string, file: string): unknown {
  try {
    return parseTomlText(text, file);
  } catch (error) {
    if (error instanceof TomlError) throw new ConfigError([{ path: "", message: error.message }]);
    throw error;
  }
}

/** Reads the file if given or if ./mailroom.toml exists; built-in defaults otherwise. */
/** Each channel's `schemas` read (relative to baseDir, else the working directory) and compiled; throws ConfigError naming each bad one. */
function compileChannelSchemas(config: Config, checks: ConfigChecks, baseDir: string | undefined): Config["channelSchemas"] {
  const out: NonNullable<Config["channelSchemas"]> = {};
  const problems: Problem[] = [];
  config.channels.forEach((channel, i) => {
    if (!channel.schemas) return;
    const list: { pattern: string; validate: CompiledSchema }[] = [];
    for (const [pattern, file] of Object.entries(channel.schemas)) {
      const path = `channels[${i}].schemas.${JSON.stringify(pattern)}`;
      if (pattern.includes("*") && !(pattern === "*" || (pattern.endsWith("*") && pattern.indexOf("*") === pattern.length - 1))) {
        problems.push({ path, message: "must be an event type, a prefix followed by *, or *" });
        continue;
      }
      if (!checks.schema) continue;
      const compiled = checks.schema(pathResolve(baseDir ?? ".", file));
      if (typeof compiled === "string") problems.push({ path, message: `${file}: ${compiled}` });
      else list.push({ pattern, validate: compiled });
    }
    out[channel.name] = list;
  });
  if (problems.length) throw new ConfigError(problems);
  return Object.keys(out).length ? out : undefined;
}

export async function loadConfig(file: string | undefined, env: Env, overrides: Overrides, checks: ConfigChecks): Promise<{ config: Config; source: string }> {
  const path = file ?? env.MAILROOM_CONFIG ?? "mailroom.toml";
  const handle = Bun.file(path);
  if (!(await handle.exists())) {
    if (file ?? env.MAILROOM_CONFIG) throw new ConfigError([{ path: "", message: `config file ${path} not found` }]);
    return { config: buildConfig({}, env, overrides, checks), source: "built-in defaults" };
  }
  return { config: buildConfig(parseToml(await handle.text(), path), env, overrides, checks, pathDirname(pathResolve(path))), source: path };
}
