/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` in a fresh temp folder, one
 * superuser with a random password (scram-sha-256), listening on 127.0.0.1 on a free port, fsync
 * off, started with `pg_ctl -w start` (under a second on this machine). As root (CI), initdb and
 * pg_ctl run as the `postgres` system user (else `nobody`), since PostgreSQL refuses to run as root.
 *
 * The cluster never outlives the process that started it: an 'exit' handler stops it, and a
 * watchdog (a shell in its own session, reading a pipe from this process) stops it and removes its
 * folder when the pipe closes, which also happens on SIGINT, SIGTERM, SIGKILL or a crash.
 *
 * @example
 * const url = await freshDatabase(); // postgres://mailroom:...@127.0.0.1:41234/mailroom_t_1234_1_x
 */
import { SQL } from "bun";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { UNDER_CI } from "./ci";

export type PostgresCluster = {
  /** postgres://mailroom:<password>@127.0.0.1:<port>/postgres */
  url: string;
  /** Stops the server (immediate mode) and removes its folder; resolves when both are done. */
  stop(): Promise<void>;
};

const SUPERUSER = "mailroom";
const MIN_VERSION = 15;

/**
 * The folder holding initdb and pg_ctl: the one of `initdb` on PATH, else Debian's newest
 * /usr/lib/postgresql/<version>/bin. Throws when there is none or it is older than 15.
 */
export function postgresBinDir(): string {
  const onPath = Bun.which("initdb");
  let dir = onPath ? dirname(realpathSync(onPath)) : undefined;
  if (!dir && existsSync("/usr/lib/postgresql")) {
    const versions = readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v) && existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
    const newest = versions.map(Number).sort((a, b) => b - a)[0];
    if (newest !== undefined) dir = `/usr/lib/postgresql/${newest}/bin`;
  }
  if (!dir) throw new Error("PostgreSQL not found: no initdb on PATH or in /usr/lib/postgresql/*/bin (run .ci/postgres.sh)");
  const version = Number(/(\d+)/.exec(Bun.spawnSync([join(dir, "initdb"), "--version"]).stdout.toString())?.[1]);
  if (!(version >= MIN_VERSION)) throw new Error(`${dir}/initdb is PostgreSQL ${version}: Mailroom needs ${MIN_VERSION} or newer`);
  return dir;
}

/**
 * Whether the PostgreSQL tests can run here: MAILROOM_TEST_PG_URL names a server, or PostgreSQL 15
 * or newer is installed. Under CI always true, so that a missing PostgreSQL fails those tests
 * instead of leaving them out; elsewhere a missing one prints why and returns false.
 */
export function postgresAvailable(): boolean {
  if (process.env.MAILROOM_TEST_PG_URL || UNDER_CI) return true;
  try {
    postgresBinDir();
    return true;
  } catch (error) {
    console.warn(`PostgreSQL tests skipped: ${(error as Error).message}`);
    return false;
  }
}

type RunAs = { name: string; uid: number; gid: number } | undefined;

/** As root: the `postgres` system user if it exists, else `nobody`. Otherwise: nobody to switch to. */
function unprivilegedUser(): RunAs {
  if (process.getuid?.() !== 0) return undefined;
  const passwd = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .map((line) => line.split(":"));
  for (const name of ["postgres", "nobody"]) {
    const entry = passwd.find((fields) => fields[0] === name);
    if (entry) return { name, uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error("running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as");
}

function argvAs(user: RunAs, argv: string[]): string[] {
  return user ? ["runuser", "-u", user.name, "--", ...argv] : argv;
}

// A clean environment: PGDATA, PGPORT and the like of the caller must not leak into the cluster.
const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" };

async function run(argv: string[]): Promise<string> {
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: ENV });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code}: ${err || out}`);
  return out;
}

/** A TCP port nobody listens on right now (another process may still take it: start retries). */
function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}

/**
 * Starts a new cluster (initdb, then pg_ctl start) and returns its URL. Each call makes its own
 * cluster; tests want postgresCluster(). Throws with initdb's or the server log's words on failure.
 */
export async function startPostgresCluster(opts: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const user = unprivilegedUser();
  const dir = mkdtempSync(join(tmpdir(), "mailroom-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  const pgCtlStop = argvAs(user, [join(bin, "pg_ctl"), "stop", "-D", data, "-m", "immediate", "-s"]);
  const watchdog = startWatchdog(pgCtlStop, dir);
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    Bun.spawnSync(pgCtlStop, { stdout: "ignore", stderr: "ignore", env: ENV });
    rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", stopNow);
  try {
    const password = crypto.randomUUID().replaceAll("-", "");
    writeFileSync(join(dir, "password"), password, { mode: 0o600 });
    if (user) for (const path of [dir, join(dir, "password")]) chownSync(path, user.uid, user.gid);
    await run(
      argvAs(user, [
        join(bin, "initdb"),
        "--no-sync",
        "-A",
        "scram-sha-256",
        "--pwfile",
        join(dir, "password"),
        "-U",
        SUPERUSER,
        "-E",
        "UTF8",
        "--locale=C",
        "-D",
        data,
      ]),
    );
    rmSync(join(dir, "password"));
    appendFileSync(
      join(data, "postgresql.conf"),
      [
        "",
        "# test cluster (test/helpers/postgres.ts)",
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        // Tests kill Mailroom, never the server: they skip the disk. Benchmarks keep PostgreSQL's defaults.
        ...(opts.durable ? [] : ["fsync = off", "synchronous_commit = off", "full_page_writes = off"]),
        "max_connections = 200",
        "",
      ].join("\n"),
    );
    for (let tries = 1; ; tries++) {
      const port = freePort();
      try {
        await run(argvAs(user, [join(bin, "pg_ctl"), "start", "-w", "-s", "-D", data, "-l", log, "-o", `-p ${port}`]));
      } catch (error) {
        const text = existsSync(log) ? readFileSync(log, "utf8") : "";
        // Another process took the port between freePort() and the server's bind: try another one.
        if (tries < 5 && /could not bind|already in use/i.test(text)) continue;
        throw new Error(`${(error as Error).message}\n${text}`);
      }
      const url = `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`;
      return {
        url,
        async stop() {
          stopNow();
          process.off("exit", stopNow);
          watchdog.end();
        },
      };
    }
  } catch (error) {
    stopNow();
    process.off("exit", stopNow);
    watchdog.end();
    throw error;
  }
}

/**
 * A shell in its own session (so a Ctrl-C to the test's process group does not kill it first) that
 * waits for end of file on its stdin, then stops the server and removes `dir`. Only this process
 * holds the pipe's other end, so the end of file comes when it ends, however it ends.
 */
function startWatchdog(pgCtlStop: string[], dir: string): { end(): void } {
  const quoted = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const script = `cat >/dev/null; ${pgCtlStop.map(quoted).join(" ")} >/dev/null 2>&1; rm -rf ${quoted(dir)}`;
  const argv = Bun.which("setsid") ? ["setsid", "sh", "-c", script] : ["sh", "-c", script];
  const proc = Bun.spawn(argv, { stdin: "pipe", stdout: "ignore", stderr: "ignore", env: ENV });
  proc.unref();
  return {
    end() {
      void proc.stdin.end();
    },
  };
}

let shared: Promise<PostgresCluster> | undefined;

/**
 * The test process's one cluster, started on first use and stopped when the process exits. With
 * MAILROOM_TEST_PG_URL set (a superuser's URL, e.g. from `bun scripts/postgres.ts`), that server
 * is used instead and nothing is started; its stop() does nothing.
 */
export function postgresCluster(): Promise<PostgresCluster> {
  const external = process.env.MAILROOM_TEST_PG_URL;
  if (external) return (shared ??= Promise.resolve({ url: external, stop: async () => {} }));
  shared ??= startPostgresCluster().then(
    (cluster) => ({
      url: cluster.url,
      async stop() {
        shared = undefined;
        await cluster.stop();
      },
    }),
    (error) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

let databases = 0;

/**
 * Creates a new, empty database on postgresCluster() and returns its URL (same user and password).
 * Databases are not dropped: they go with the cluster (on an external one, they stay).
 */
export async function freshDatabase(): Promise<string> {
  const { url } = await postgresCluster();
  const name = `mailroom_t_${process.pid}_${++databases}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new SQL(url, { max: 1 });
  try {
    // FILE_COPY: about 15 ms against 25-300 ms for WAL_LOG (the default) with fsync off.
    await admin.unsafe(`CREATE DATABASE "${name}" STRATEGY FILE_COPY`);
  } finally {
    await admin.close();
  }
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return fresh.toString();
}
