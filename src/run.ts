/**
 * The commands that read the config, open storage or serve (main.ts loads this module only for
 * them): side effects of main.ts's kind, kept apart so that `--version` and the client commands
 * load neither the server nor a database driver.
 */
import { resignWarnings } from "./delivery/config-checks";
import { verifiedChannels } from "./delivery";
import { dirname, resolve } from "node:path";
import { createApp } from "./app";
import { parsePid, type Command } from "./cli";
import { VERSION } from "./lib/version";
import { watchParent } from "./lib/parent";
import type { Config } from "./config/schema";
import { createUsers } from "./dashboard/users";
import { randomToken } from "./lib/secrets";
import { credentialsPath, readCredentials, saveLocalCredentials } from "./lib/credentials";
import { processIo } from "./lib/io";
import { setupLines } from "./dashboard/setup";
import { ConfigError, FORWARD_TO, forwardRouteName, loadConfig } from "./load-config";
import { effectiveAuth } from "./config/load";
import { openStorage, StorageOpenError } from "./db/open-storage";
import { DataFileInUse, lockDataFile } from "./db/sqlite/lock";
import { openDatabase } from "./db/sqlite/open";
import { openPostgres, PostgresOpenError, redactPostgresUrl } from "./db/pg/open";
import { migratePostgres } from "./db/pg/migrate";
import { DELAY_GRACE_MS } from "./hooks/delays";
import type { DashboardStore } from "./dashboard/store";
import { createDashboardStore } from "./db/stores/dashboard";
import { pgDialect, sqliteDialect } from "./db/stores/dialect";
import { pgTransactor } from "./db/pg/transactor";
import { systemClock } from "./lib/clock";
import { coalesce, createTerminal } from "./lib/terminal";
import { createMetrics } from "./metrics";
import { createRunner } from "./runner";
import { defaultHealthUrl, healthcheck } from "./healthcheck";
import { serve, serveMetrics, servePublic } from "./server";
import { portTaken } from "./lib/port";
import { busyServing, keepMemoryDown, type Served } from "./lib/memory";
import { startRelayClient, type RelayClient } from "./relay/client";
import { listenerIdentity } from "./relay/identity";

/** A command that reads the config (or, for a health check with --url, none). */
/**
 * A thread's module, by its path under src/. The threads are also entry points of `npm run build`:
 * inside the executable a relative specifier names the embedded one (import.meta.url names the
 * source file there, because of --bytecode, and a Worker made from it reads the file from disk).
 * Whether this is the executable is asked of Bun: its embedded paths start with `/$bunfs/` on Linux
 * and macOS but `B:\~BUN\` on Windows.
 */
export const threadModule = (path: string, standalone = Bun.isStandaloneExecutable) => (standalone ? `./${path}` : new URL(`./${path}`, import.meta.url).href);

export type ServerCommand = Exclude<Command, { kind: "help" | "version" | "error" }>;

/**
 * Runs `serve`, `check-config`, `migrate`, `healthcheck` or `user add`: the exit code, or -1 while
 * serving (the process then exits from its signal handlers).
 */
export async function runCommand(command: ServerCommand): Promise<number> {
  // With --url the config is not read: a health check must not fail on a config it does not need.
  if (command.kind === "healthcheck" && command.url) return check(command.url);

  let loaded;
  try {
    loaded = await loadConfig(
      command.config,
      process.env,
      command.kind === "user-add"
        ? {}
        : {
            host: command.host,
            port: command.port,
            forwardTo: command.forwardTo,
            forward: command.forward,
            relay: command.kind === "listen" ? command.relay : undefined,
          },
    );
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`mailroom: the config has ${error.problems.length} problem(s):`);
    for (const p of error.problems) console.error(`  ${p.path || "(file)"}: ${p.message}`);
    return 1;
  }
  let { config } = loaded;
  const { source } = loaded;
  if (command.kind === "check-config") return checkConfig(config, source);
  if (command.kind === "migrate") return migrateOnly(config);
  if (command.kind === "healthcheck") {
    if (config.server.port === 0) return (console.error("mailroom: healthcheck: the config's port is 0 (picked at start); give --url"), 1);
    return check(defaultHealthUrl(config.server.host, config.server.port));
  }
  if (command.kind === "user-add") return addUser(command, config);
  const parentEnv = process.env.MAILROOM_PARENT_PID;
  const parentPid = command.parentPid ?? (parentEnv ? parsePid(parentEnv) : undefined);
  if (parentEnv && parentPid === undefined) return (console.error(`mailroom: MAILROOM_PARENT_PID: not a process id: ${parentEnv}`), 2);

  const clock = systemClock;
  // A server outlives its log's reader (`mailroom serve | head -1`): a closed stdout or stderr stops
  // that stream's lines, never the server; any other write error is said once on the other stream.
  const gone = { stdout: false, stderr: false };
  for (const name of ["stdout", "stderr"] as const) {
    process[name].on("error", (error: NodeJS.ErrnoException) => {
      if (gone[name]) return;
      gone[name] = true;
      const other = name === "stdout" ? "stderr" : "stdout";
      if (error.code !== "EPIPE" && !gone[other]) process[other].write(`mailroom: ${name} failed (${error.code ?? error.message}); its log lines stop\n`);
    });
  }
  const stdout = coalesce((text) => void (gone.stdout || process.stdout.write(text)));
  const { activity, log } = createTerminal({
    format: command.logFormat ?? "text",
    quiet: command.quiet ?? false,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    write: stdout.write,
    writeError: (text) => (stdout.flush(), void (gone.stderr || process.stderr.write(text))),
  });
  // Before storage is opened: a command that fails creates nothing (no data folder).
  const listens = [
    { host: config.server.host, port: config.server.port },
    ...(config.server.public ? [config.server.public] : []),
    ...(config.metrics.listen ? [config.metrics.listen] : []),
  ];
  const taken = listens.find((l) => portTaken(l.host, l.port));
  if (taken) return (console.error(inUse(taken.host, taken.port)), 1);
  let opened;
  try {
    opened = await openStorage(config, log, {
      checkpointThreadUrl: threadModule("db/sqlite/checkpoint-thread.ts"),
      searchThreadUrl: threadModule("db/sqlite/search-thread.ts"),
    });
  } catch (error) {
    if (!(error instanceof StorageOpenError)) throw error;
    return (stdout.flush(), console.error(`mailroom: ${error.message}`), 1);
  }
  const { storage } = opened;
  // [dashboard] auth left unset: decided now that the stored users can be counted.
  if (config.dashboard.auth === undefined)
    config = { ...config, dashboard: { ...config.dashboard, auth: effectiveAuth(config, await storage.dashboard.countUsers()) } };
  // Relative module paths and command cwd resolve against the config file's directory.
  const baseDir = source === "built-in defaults" ? undefined : dirname(resolve(source));
  const metrics = createMetrics(config);
  // --forward-to forwards the hooks caught from now on, not every pending hook of the data file.
  const fromNowOn = command.forward ? command.forward.routes.map((_, i) => forwardRouteName(i)) : command.forwardTo ? [FORWARD_TO] : [];
  const runner = createRunner({ config, queue: storage.attempts, clock, log, baseDir, metrics, activity, fromNowOn });
  const built = createApp({ config, storage, clock, log, runner, metrics, activity, contractsThreadUrl: threadModule("contracts/thread.ts") });
  await built.ready;
  const keys = built.apiKeys.source.keys;
  const generated = built.apiKeys.generated();
  /** Requests both listeners received: the memory keeper collects less while they come fast. */
  const served: Served = { requests: 0, lastAt: 0 };
  let server;
  try {
    server = serve(built, { host: config.server.host, port: config.server.port, served });
  } catch (error) {
    if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
    console.error(inUse(config.server.host, config.server.port));
    return 1;
  }
  let publicServer;
  const pub = config.server.public;
  try {
    publicServer = pub && servePublic(built, { host: pub.host, port: pub.port, served });
  } catch (error) {
    if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
    await server.stop(true);
    console.error(inUse(pub!.host, pub!.port));
    return 1;
  }
  const metricsServer = built.metricsApp && serveMetrics(built.metricsApp, config.metrics.listen!);
  runner.start();
  // A flood's garbage is given back once it is over the soft mark, rarely while requests come fast (lib/memory.ts).
  const memory = keepMemoryDown({ busy: busyServing(served) });
  // [[relays]] and `mailroom listen`: this Mailroom receives upstream channels into its own store.
  const identity = config.relays.length > 0 ? listenerIdentity(config.storage.path, clock.now()) : undefined;
  const verifiedRelayed = verifiedChannels(config);
  const relayClients: RelayClient[] = config.relays.flatMap((r) =>
    r.channels.map((channel) =>
      startRelayClient({
        target: { url: r.url, channel, token: r.token! },
        identity: identity!,
        writer: built.writer,
        stored: async (id) => (await storage.hooks.getHookSummary(id)) !== undefined,
        channelVerifies: (name) => verifiedRelayed.has(name),
        maxBody: config.hooks.max_body,
        clock,
        log,
      }),
    ),
  );
  built.listens.push(...relayClients);

  // Installed before the line that says it listens: whoever starts Mailroom may stop it from then on.
  let stopping = false;
  const stop = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info(`${reason}: finishing in-flight requests (delayed answers within ${DELAY_GRACE_MS / 1000} s; a second signal stops at once)`);
    // A channel's delayed answers (up to 5 minutes) go out now or within the grace, with their status.
    built.catcher.cutDelays(DELAY_GRACE_MS);
    built.live.streams.close(); // open streams would otherwise keep server.stop waiting
    await built.relayHub.close(); // so would relay listeners' sockets; their hooks in flight are queued again and their relays let go
    await Promise.all(relayClients.map((c) => c.stop()));
    await server.stop(false);
    await publicServer?.stop(false);
    await metricsServer?.stop(false);
    await built.close();
    await runner.stop();
    await storage.close();
    memory.stop();
    log.info("stopped");
    stdout.flush();
    process.exit(code);
  };
  // `listen` is there for its relay: a refusal no retry can change (a wrong token, a channel the
  // key does not name) ends it with status 1 instead of retrying for ever. `serve`'s [[relays]]
  // stop trying and say why (the log, the dashboard's relay state).
  if (command.kind === "listen")
    for (const c of relayClients)
      void c.refused.then((message) => {
        if (message === undefined) return;
        console.error(`mailroom listen: ${message}`);
        void stop("the relay was refused", 1);
      });
  // The second signal does not wait: whoever sends it wants the process gone (hooks already answered are committed).
  const onSignal = (signal: "SIGINT" | "SIGTERM") => {
    if (!stopping) return void stop(signal);
    stdout.flush();
    console.error(`mailroom: ${signal} again: stopping at once, without waiting for requests in flight`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.on("SIGINT", () => onSignal("SIGINT"));
  process.on("SIGTERM", () => onSignal("SIGTERM"));
  if (parentPid !== undefined) watchParent(parentPid, () => void stop(`parent process ${parentPid} ended`));

  console.log(`  config:   ${source}`);
  console.log(`  data:     ${opened.describe}`);
  console.log(`  channels: ${config.channels.map((c) => c.name).join(", ") || "(none configured; created by their first hook)"}`);
  for (const r of config.relays) console.log(`  relay:    ${r.channels.join(", ")} from ${r.url}`);
  if (command.forwardTo)
    console.log(`  forward:  ${command.forwardTo.channel ? `channel ${command.forwardTo.channel}` : "every channel"} -> ${command.forwardTo.url}`);
  for (const r of command.forward?.routes ?? [])
    console.log(`  forward:  ${command.forward!.channel ? `channel ${command.forward!.channel}` : "every channel"}, ${r.pattern} -> ${r.url}`);
  console.log(`  api keys: ${keys.map((k) => k.label).join(", ")}`);
  if (publicServer) console.log(`  public:   http://${publicServer.hostname}:${publicServer.port} (catching and relay only)`);
  if (config.metrics.enabled) {
    const where = metricsServer ? `http://${metricsServer.hostname}:${metricsServer.port}/metrics` : "/metrics";
    console.log(`  metrics:  ${where}${config.metrics.auth ? " (bearer token)" : " (open)"}`);
  }
  const localSha256 = keys.find((k) => k.label === built.apiKeys.localLabel)?.sha256;
  // The setup link printed before (its token kept in the credentials file) stays the one printed.
  const credentials = config.storage.path === ":memory:" ? undefined : readCredentials(credentialsPath(config.storage.path));
  // Under auth = "none" nobody signs in: no setup link, the dashboard's URL instead (below).
  const noAuth = config.dashboard.auth === "none";
  const setupLink = noAuth ? undefined : await built.dashboard.setup.issue({ saved: credentials?.setup, shared: config.storage.url !== undefined });
  const saved = saveLocalCredentials({
    dbPath: config.storage.path,
    host: config.server.host,
    port: server.port ?? config.server.port,
    localSha256,
    generated: generated?.token,
    setup: setupLink?.token,
  });
  for (const line of saved) console.log(line);
  // With a public listener, public_url is where senders reach it: the dashboard is on this one.
  const base = (!publicServer && config.server.public_url?.base) || `http://${server.hostname}:${server.port}`;
  if (noAuth) console.log(`  dashboard: ${base}/ui/ (no sign-in: [dashboard] auth = "none", this machine only)`);
  if (setupLink) for (const line of setupLines(setupLink, base)) console.log(line);
  // Last, so that whoever waits for this line has everything above it.
  console.log(`mailroom ${VERSION} listening on http://${server.hostname}:${server.port}`);

  return -1;
}

const inUse = (host: string, port: number) => `mailroom: port ${port} on ${host} is already in use (another Mailroom?); stop it or choose another with --port`;

/**
 * A line of a command that ends (check-config, migrate, healthcheck, user add) on stdout, through the
 * same sink as the client commands: main.ts exits once it was written, and a write error is said.
 */
const say = (line: string) => processIo.out(`${line}\n`);

/** The config is valid; for PostgreSQL, the database also answers and is recent enough. */
async function checkConfig(config: Config, source: string): Promise<number> {
  for (const warning of resignWarnings(config)) console.error(`mailroom: ${source}: warning: ${warning}`);
  if (!config.storage.url) return (say(`${source}: ok`), 0);
  try {
    const sql = await openPostgres(config.storage.url, { max: 1 });
    await sql.close();
  } catch (error) {
    if (!(error instanceof PostgresOpenError)) throw error;
    return (console.error(`mailroom: ${source}: [storage] url: ${error.message}`), 1);
  }
  return (say(`${source}: ok (${redactPostgresUrl(config.storage.url)} answers)`), 0);
}

/** `mailroom migrate`: applies what is missing and exits (deploys that migrate before starting instances). */
async function migrateOnly(config: Config): Promise<number> {
  if (!config.storage.url) {
    if (config.storage.path === ":memory:") return (console.error("mailroom: migrate: [storage] path is :memory:, nothing to migrate"), 1);
    try {
      const lock = lockDataFile(config.storage.path);
      openDatabase({ path: config.storage.path, durability: config.storage.durability }).$client.close();
      lock.close();
    } catch (error) {
      if (!(error instanceof DataFileInUse)) throw error;
      return (console.error(`mailroom: ${error.message}`), 1);
    }
    return (say(`mailroom: ${config.storage.path} is migrated`), 0);
  }
  try {
    const sql = await openPostgres(config.storage.url, { max: 1 });
    try {
      await migratePostgres(sql);
    } finally {
      await sql.close();
    }
  } catch (error) {
    if (!(error instanceof PostgresOpenError)) throw error;
    return (console.error(`mailroom: migrate: ${error.message}`), 1);
  }
  return (say(`mailroom: ${redactPostgresUrl(config.storage.url)} is migrated`), 0);
}

async function check(url: string): Promise<number> {
  const result = await healthcheck(url);
  if (result.ok) return (say(`mailroom: healthcheck: ${result.message}`), 0);
  return (console.error(`mailroom: healthcheck: ${result.message}`), 1);
}

/** `mailroom user add`: stores a dashboard user in the configured database. */
async function addUser(command: Extract<Command, { kind: "user-add" }>, config: Config): Promise<number> {
  let password = randomToken("").slice(0, 20);
  if (command.passwordStdin) password = (await new Response(Bun.stdin.stream()).text()).split(/\r?\n/)[0] ?? "";
  // SQLite: the file may be in use by a running server (it sees the user at the next sign-in).
  let store: DashboardStore;
  let close: () => Promise<void>;
  if (config.storage.url) {
    try {
      const sql = await openPostgres(config.storage.url, { max: 2 });
      await migratePostgres(sql);
      store = createDashboardStore(pgDialect(pgTransactor(sql)));
      close = () => sql.close();
    } catch (error) {
      if (!(error instanceof PostgresOpenError)) throw error;
      return (console.error(`mailroom: user add: ${error.message}`), 1);
    }
  } else {
    const db = openDatabase({ path: config.storage.path, durability: config.storage.durability });
    store = createDashboardStore(sqliteDialect(db.$client));
    close = async () => db.$client.close();
  }
  try {
    const users = createUsers({ store, config, clock: systemClock });
    await users.add(command.email, command.role, password);
    say(`added ${command.role} ${command.email.toLowerCase()}`);
    if (!command.passwordStdin) say(`  password (shown once): ${password}`);
    return 0;
  } catch (error) {
    console.error(`mailroom: user add: ${error instanceof Error ? error.message : error}`);
    return 1;
  } finally {
    await close();
  }
}
