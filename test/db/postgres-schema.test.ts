import { expect, test } from "bun:test";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as pg from "../../src/schema/pg";
import * as sqlite from "../../src/schema/sqlite";

/** What the PostgreSQL schema adds or leaves out on purpose (src/schema/pg/*.ts say why). */
const PG_ONLY_TABLES = ["channel_counts"];
// deliveries.pending: a delivery id claimed by one instance and not yet stored (SQLite, one process, keeps claims in memory).
const PG_ONLY_COLUMNS = ["attempts.lease_owner", "attempts.lease_until", "deliveries.pending"];
const SQLITE_ONLY_COLUMNS = ["channels.pending", "channels.handled", "channels.failed", "channels.discarded"];
// hooks_status_id: a status's hooks across channels, for searches and counts (SQLite reads each channel's range).
// hooks_ip_id: the sender's address as an inet (an expression, no column name), for ip: (SQLite's search index holds the addresses).
const PG_ONLY_INDEXES = ["hooks.hooks_status_id(status,id)", "hooks.hooks_ip_id(,id)"];

type Shape = {
  columns: string[];
  primaryKey: string[];
  indexes: string[];
  foreignKeys: string[];
};

function shape(
  config: {
    name: string;
    columns: { name: string; notNull: boolean; primary: boolean; hasDefault: boolean }[];
    primaryKeys: { columns: { name: string }[] }[];
    indexes: { config: { name?: string; columns: unknown[] } }[];
    foreignKeys: { reference(): { columns: { name: string }[]; foreignTable: unknown; foreignColumns: { name: string }[] }; onDelete?: string }[];
  },
  tableName: (t: unknown) => string,
  skip: string[],
): Shape {
  const columns = config.columns.filter((c) => !skip.includes(`${config.name}.${c.name}`));
  return {
    // SQLite gives every integer primary key a default (the rowid); translate_accounts.id is always set.
    columns: columns.map((c) => `${c.name}${c.notNull ? " not null" : ""}${c.hasDefault && !c.primary ? " default" : ""}`).sort(),
    primaryKey: [...columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((k) => k.columns.map((c) => c.name))],
    indexes: config.indexes.map((i) => `${i.config.name}(${(i.config.columns as { name: string }[]).map((c) => c.name).join(",")})`).sort(),
    foreignKeys: config.foreignKeys
      .map((fk) => {
        const ref = fk.reference();
        return `${ref.columns.map((c) => c.name)} -> ${tableName(ref.foreignTable)}(${ref.foreignColumns.map((c) => c.name)}) on delete ${fk.onDelete ?? "no action"}`;
      })
      .sort(),
  };
}

test("the PostgreSQL schema has SQLite's tables, columns, keys, indexes and foreign keys", () => {
  const sqliteTables = (Object.values(sqlite) as unknown[]).filter((t) => t instanceof SQLiteTable).map((t) => sqliteConfig(t as SQLiteTable));
  const pgTables = (Object.values(pg) as unknown[]).filter((t) => t instanceof PgTable).map((t) => pgConfig(t as PgTable));
  expect(pgTables.map((t) => t.name).sort()).toEqual([...sqliteTables.map((t) => t.name), ...PG_ONLY_TABLES].sort());
  for (const s of sqliteTables) {
    const p = pgTables.find((t) => t.name === s.name)!;
    const want = shape(s as never, (t) => sqliteConfig(t as SQLiteTable).name, SQLITE_ONLY_COLUMNS);
    const got = shape(p as never, (t) => pgConfig(t as PgTable).name, PG_ONLY_COLUMNS);
    got.indexes = got.indexes.filter((i) => !PG_ONLY_INDEXES.includes(`${s.name}.${i}`));
    expect({ table: s.name, ...got }).toEqual({ table: s.name, ...want });
  }
});
