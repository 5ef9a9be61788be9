import { issueLocalToken, localKeyLabel } from "../hooks/api-keys";
import { openDatabase } from "../db/sqlite/open";
import { createApiKeyStore } from "../db/stores/api-keys";
import { pgDialect, sqliteDialect } from "../db/stores/dialect";
import { openPostgres, PostgresOpenError } from "../db/pg/open";
import { migratePostgres } from "../db/pg/migrate";
import { pgTransactor } from "../db/pg/transactor";
import { FEED_CHANNEL } from "../db/pg/feed";
import { encode } from "../db/feed-changes";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError, noMore, parseFlags, unknownSubcommand } from "../lib/args";
import { credentialsPath, localUrl, readCredentials, writeCredentials } from "../lib/credentials";
import type { Io } from "../lib/io";
import { tokenCreate } from "./token-create";

/**
 * `mailroom token reset`: a new local token replaces the old one (which stops working at once,
 * in a running Mailroom too) and is saved in the credentials file. `mailroom token show` prints the
 * saved one. Both work on the database directly, so they need no running server and no token. On
 * PostgreSQL the key replaced is this instance's own (hooks/api-keys.ts localKeyLabel: this host
 * and data path); the other instances' local keys are left alone.
 */
export type StorageOf = (
  config?: string,
) => Promise<{ path: string; host: string; port: number; url?: string; source: string /** the config file's key labels */; labels?: string[] }>;

export async function tokenCommand(argv: string[], io: Io, storageOf: StorageOf): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "create") return tokenCreate(rest, io, (config) => openKeys(storageOf, io, config));
  const p = parseFlags(rest, { config: "value" });
  noMore(p, 0);
  if (sub === undefined) throw new UsageError("token needs a subcommand: create, reset or show");
  if (sub !== "reset" && sub !== "show") throw unknownSubcommand("token", sub, ["create", "reset", "show"]);
  const storage = await storageOf(p.values.config);
  if (storage.path === ":memory:" && !storage.url) throw new UsageError("the config keeps its data in memory: there is no stored token");
  const file = credentialsPath(storage.path);
  // Never a new database: its token would be one that the running server does not know.
  if (!storage.url && !existsSync(storage.path)) return (io.err(noData(storage.path, io.env.MAILROOM_DB ? "MAILROOM_DB" : storage.source)), 1);
  if (sub === "show") {
    const saved = readCredentials(file);
    if (!saved?.token) return (io.err(`mailroom: no token in ${file}; \`mailroom token reset\` issues one\n`), 1);
    return (io.out(saved.token + "\n"), 0);
  }
  // On PostgreSQL the key is stored there, and the running instances are told to read the keys again.
  const opened = storage.url ? await openPgKeys(storage.url) : undefined;
  const db = opened ? undefined : openDatabase({ path: storage.path, durability: "full" });
  try {
    const label = localKeyLabel(storage);
    const token = await issueLocalToken(opened?.store ?? createApiKeyStore(sqliteDialect(db!.$client)), label, io.now());
    await opened?.announce();
    const saved = readCredentials(file);
    writeCredentials(file, { url: saved?.url ?? localUrl(storage.host, storage.port), token, setup: saved?.setup });
    io.err(`the ${label} token was re-issued (the old one no longer works); saved in ${file}\n`);
    io.out(token + "\n");
    return 0;
  } finally {
    db?.$client.close();
    await opened?.close();
  }
}

/**
 * The configured database's key store (SQLite or PostgreSQL) and the config file's key labels.
 * Never a new SQLite file (a key there would be one the running server does not know): throws
 * UsageError saying where the data was expected.
 */
async function openKeys(storageOf: StorageOf, io: Io, config?: string) {
  const storage = await storageOf(config);
  if (storage.path === ":memory:" && !storage.url) throw new UsageError("the config keeps its data in memory: a key stored now would be lost");
  if (!storage.url && !existsSync(storage.path))
    throw new UsageError(
      noData(storage.path, io.env.MAILROOM_DB ? "MAILROOM_DB" : storage.source)
        .replace(/^mailroom: /, "")
        .trimEnd(),
    );
  const configured = new Set(storage.labels ?? []);
  if (storage.url) return { handle: await openPgKeys(storage.url), configured };
  const db = openDatabase({ path: storage.path, durability: "full" });
  return { handle: { store: createApiKeyStore(sqliteDialect(db.$client)), announce: async () => {}, close: async () => db.$client.close() }, configured };
}

/** Where the data was expected, and how to point there. */
function noData(path: string, source: string): string {
  const from =
    source === "built-in defaults" ? "the default, relative to this folder" : source === "MAILROOM_DB" ? "from MAILROOM_DB" : `the [storage] path of ${source}`;
  return [
    `mailroom: no Mailroom data here: ${resolve(path)} does not exist (${from}).`,
    "  Run this where `mailroom serve` runs, or point at its data: --config FILE (the config serve reads),",
    "  MAILROOM_CONFIG=FILE, or MAILROOM_DB=PATH (the data file itself).",
    "",
  ].join("\n");
}

/** The API keys on PostgreSQL, and a notification on the change feed that they changed. */
async function openPgKeys(url: string) {
  let sql;
  try {
    sql = await openPostgres(url, { max: 2 });
  } catch (error) {
    if (error instanceof PostgresOpenError) throw new UsageError(error.message);
    throw error;
  }
  await migratePostgres(sql);
  const db = sql;
  return {
    store: createApiKeyStore(pgDialect(pgTransactor(db))),
    // As an instance announces a change of the keys (db/feed-changes.ts), from a sender named "cli".
    announce: () => db.notify(FEED_CHANNEL, `cli\n${encode({ kind: "state", part: "api_keys" }).join("\n")}`),
    close: () => db.close(),
  };
}
