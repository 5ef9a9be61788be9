import { SQL } from "bun";
import { postgresTarget, postgresUrlProblem, type PostgresTarget } from "../../config/postgres-url";
import { PLAN_CACHE_MODE } from "./transactor";

/** The oldest PostgreSQL Mailroom runs on (SHOW server_version_num). */
export const MIN_SERVER_VERSION_NUM = 150000;

/**
 * Why a PostgreSQL database could not be used. Its message names the server (host:port, database,
 * user) and the cause, never the password; the driver's own error is not kept, as some carry the
 * whole URL (an invalid URL's TypeError has it in `input`).
 */
export class PostgresOpenError extends Error {
  constructor(
    readonly reason: "invalid_url" | "unreachable" | "too_old",
    message: string,
    /** The driver's code (ERR_POSTGRES_CONNECTION_REFUSED) or the server's SQLSTATE (28P01), if any. */
    readonly code?: string,
  ) {
    super(message);
    this.name = "PostgresOpenError";
  }
}

type Target = PostgresTarget;

/** Throws PostgresOpenError("invalid_url") saying what is wrong (config/postgres-url.ts), never quoting the URL. */
function parse(url: string): Target {
  const problem = postgresUrlProblem(url);
  if (problem) throw new PostgresOpenError("invalid_url", `[storage] url: ${problem}`);
  return postgresTarget(url);
}

/** `postgres://user@host:port/database`: the URL without its password, for logs and errors. */
export function redactPostgresUrl(url: string): string {
  const t = parse(url);
  return `postgres://${t.user ? `${encodeURIComponent(t.user)}@` : ""}${t.host}:${t.port}/${encodeURIComponent(t.database)}`;
}

function describe(t: Target): string {
  return `PostgreSQL at ${t.host}:${t.port} (database ${t.database || "(default)"}, user ${t.user || "(default)"})`;
}

function causeOf(error: unknown, secrets: string[]): { text: string; code?: string } {
  const e = error as { message?: string; code?: string; errno?: string };
  const code = e?.errno ?? e?.code;
  let text = `${e?.message ?? String(error)}${code ? ` (${code})` : ""}`;
  for (const secret of secrets) text = text.replaceAll(secret, "***");
  return { text, code };
}

/**
 * Throws PostgresOpenError("too_old") unless the server is PostgreSQL 15 or newer; lets the
 * driver's errors through (callers that connect wrap them, see openPostgres).
 */
export async function checkServerVersion(sql: SQL): Promise<void> {
  const [{ server_version_num: num, server_version: version }] = await sql`
    SELECT current_setting('server_version_num') AS server_version_num, current_setting('server_version') AS server_version`;
  if (Number(num) < MIN_SERVER_VERSION_NUM) {
    throw new PostgresOpenError("too_old", `PostgreSQL ${version} is too old: Mailroom needs PostgreSQL 15 or newer`);
  }
}

export type PostgresOptions = {
  /** Connections in the pool (default: POOL_CONNECTIONS). */
  max?: number;
  /** Seconds to wait for a connection to open (default here: 10). */
  connectionTimeout?: number;
  /**
   * Every statement planned for its values (`plan_cache_mode = force_custom_plan`, sent when each
   * connection opens, reopened ones too): the pool PgTransactor.read() reads on.
   */
  customPlans?: boolean;
};

/** Connections of the main pool of an instance (Bun's default). */
export const POOL_CONNECTIONS = 10;
/** Connections of the pool of an instance's searches and counts (PgTransactor.read). */
export const READ_CONNECTIONS = 4;

/**
 * Opens a pool on `url`, connects once and checks the server's version.
 * Throws PostgresOpenError: invalid_url, unreachable (refused, unknown host, timeout, wrong
 * password, no such database) or too_old; the pool is closed then.
 *
 * @example const sql = await openPostgres("postgres://mailroom:secret@db:5432/mailroom");
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<SQL> {
  const target = parse(url);
  // The database is passed explicitly: Bun.sql lets PGDATABASE win over the URL's.
  let sql: SQL;
  try {
    sql = new SQL(url, {
      ...(target.database ? { database: target.database } : {}),
      max: options.max ?? POOL_CONNECTIONS,
      ...(options.customPlans ? { connection: { plan_cache_mode: PLAN_CACHE_MODE } } : {}),
      connectionTimeout: options.connectionTimeout ?? 10,
    });
  } catch (error) {
    // What postgresUrlProblem did not foresee; the driver's message, without the password.
    throw new PostgresOpenError("invalid_url", `[storage] url: the driver refuses it: ${causeOf(error, target.secrets).text}`);
  }
  try {
    await checkServerVersion(sql);
    return sql;
  } catch (error) {
    await sql.close({ timeout: 0 }).catch(() => {});
    if (error instanceof PostgresOpenError) throw new PostgresOpenError(error.reason, `${describe(target)}: ${error.message}`);
    const cause = causeOf(error, target.secrets);
    throw new PostgresOpenError("unreachable", `cannot connect to ${describe(target)}: ${cause.text}`, cause.code);
  }
}

/**
 * The pool of searches and counts (PgTransactor.read), or undefined when the server will not give
 * one whose connections plan for their values: a pooler such as PgBouncer refuses a parameter sent
 * at connection ("unsupported startup parameter"), or drops it when told to ignore it. Then
 * searches and counts set the mode in a transaction of their own, as on the main pool: the same
 * results, three round trips more each. Said once in the log.
 */
export async function openReadPool(
  url: string,
  log: { warn(message: string, fields?: Record<string, unknown>): void },
  open = openPostgres,
): Promise<SQL | undefined> {
  const fallBack = "searches and counts plan for their values in a transaction each (three round trips more)";
  let reads: SQL;
  try {
    reads = await open(url, { max: READ_CONNECTIONS, customPlans: true });
  } catch (error) {
    log.warn(`a pool of reads planned for their values could not be opened (refused by a pooler, or no connection left); ${fallBack}`, {
      error: error instanceof PostgresOpenError ? error.message : String(error),
    });
    return undefined;
  }
  const [row] = (await reads.unsafe("SHOW plan_cache_mode").catch(() => [])) as { plan_cache_mode?: string }[];
  if (row?.plan_cache_mode === PLAN_CACHE_MODE) return reads;
  await reads.close({ timeout: 0 }).catch(() => {});
  log.warn(`the pool of reads does not plan for their values (a pooler dropped plan_cache_mode); ${fallBack}`, {
    plan_cache_mode: row?.plan_cache_mode ?? null,
  });
  return undefined;
}
