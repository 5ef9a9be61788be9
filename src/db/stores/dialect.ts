import type { Database, Statement as SqliteStatement } from "bun:sqlite";
import { Column, type DriverValueDecoder, fillPlaceholders, getTableName, is, noopDecoder, sql, type Placeholder, type SQL, type Table } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import * as pgSchema from "../../schema/pg";
import * as liteSchema from "../../schema/sqlite";
import type { Change } from "../../hooks/changes";
import { LOCK_SPACE } from "../pg/locks";
import type { PgTransactor } from "../pg/transactor";
import { report, sqliteTransactor } from "../transactor";

/**
 * How a store is written once for both backends (db/stores/*.ts).
 *
 * drizzle's query builder cannot be shared: its tables are per dialect (sqliteTable, pgTable), so
 * are its builders (SQLiteSelect runs with .get()/.all()/.run(), PgSelect is awaited for an array;
 * a write answers `changes` on one and `count` on the other), and a union of the two databases has
 * no callable `select()`. Public projects that serve both either branch per dialect at each call or
 * wrap them. So a shared store writes its statements with drizzle's `sql` template, which is
 * dialect-neutral, over the schemas' own tables and columns (schema/sqlite and schema/pg: same
 * names, same row types, checked below), and this module is the small dialect layer under it:
 *
 * - each statement is rendered once, when the store is made, by drizzle's own dialect
 *   (`?` or `$1`), with `sql.placeholder`s for its parameters: SQLite keeps it as a prepared
 *   statement, PostgreSQL sends the same text each time (Bun's client keeps it as a named prepared
 *   statement per connection). Hot paths (api key lookups, dedup counters) keep the speed of
 *   hand-written SQL: the template is not built again per call, as the builder's would be;
 * - rows are read positionally (a SQLite statement prepared once: as objects named by the keys,
 *   which its driver builds faster) and decoded by the selected columns (`mapFromDriverValue`:
 *   int8 as a JS number on PostgreSQL), so a store's rows have the schema's row types ($inferSelect);
 * - `transaction` joins the caller's transaction (db/transactor.ts, db/pg/transactor.ts), and
 *   `write` gives a single write statement what each backend needs to be atomic and take its turn;
 * - a query whose text varies per call (optional filters, IN lists of any length, a patch of any
 *   columns) is rendered per call (`rows`, `run`), its values encoded by their columns;
 * - what the two dialects spell differently is a fragment or a method here (`forUpdate`,
 *   `overriding`, `anyOf`, `lock`, `clear`, `idsPast`), not a branch in a store; a statement one dialect
 *   lacks is written in SQL both read (api key touch: a WHERE instead of GREATEST or two-argument
 *   max); a write the catching path makes joins PostgreSQL's caught batch through `send`. What a
 *   backend keeps its own way stays its own, beside the other in db/sqlite/ and db/pg/, under
 *   the shared part of its store (dedup's claims, the hook store's catching and channel counters,
 *   the attempt queue's claims and leases): each shared store's Backend type says which and why.
 *   Every store is written this way; none is written twice whole.
 *
 * Column references render qualified ("table"."column"), which is valid where an expression is;
 * an INSERT's column list, a SET target and an ON CONFLICT target take `name(column)`.
 */
export interface Dialect {
  /** Which backend this is (a Transactor's `dialect`). */
  readonly dialect: "sqlite" | "postgres";
  /** This backend's tables, as a shared store names them (the same columns and rows on both). */
  readonly tables: Tables;
  /** ` FOR UPDATE` on PostgreSQL (locks the rows read until the commit); nothing on SQLite, whose transactions take turns. */
  readonly forUpdate: SQL;
  /** A statement run for what it changes, prepared once; `build` names its parameters through `p`. */
  prepare<P extends Params = Record<never, never>>(build: (p: Placeholders<P>) => SQL): Statement<P>;
  /**
   * A statement whose rows are `fields` (column or `sql` expression, by key), prepared once:
   * `build` gets the rendered list (for SELECT or RETURNING) and names its parameters through `p`.
   */
  query<F extends Fields, P extends Params = Record<never, never>>(fields: F, build: (list: SQL, p: Placeholders<P>) => SQL): Query<P, Row<F>>;
  /** Rows of a query built per call (its text varies): rendered each time, `fields` decoded as `query`'s. */
  rows<F extends Fields>(fields: F, build: (list: SQL) => SQL): Promise<Row<F>[]>;
  /** A statement built per call; resolves to how many rows it changed. */
  run(query: SQL): Promise<number>;
  /**
   * `column` is one of a list of texts given as one parameter, so that a statement for lists of
   * any length is one text, prepared once: SQLite reads the list as JSON (`IN (SELECT value FROM
   * json_each(?))`, the list is encoded so), PostgreSQL as an array (`= ANY($1::text[])`).
   */
  anyOf(column: Column, list: Placeholder<string, readonly string[]>): SQL;
  /**
   * A list given as one parameter, as a table of one column `value` (a JSON value per item), so
   * that an INSERT of any number of rows is one text, prepared once: each row an array read by
   * position (`value ->> 0`), cast to its column's type. SQLite `json_each(?)`, PostgreSQL
   * `jsonb_array_elements($1::jsonb)`; the list is encoded as JSON on both.
   */
  each(list: Placeholder<string, readonly unknown[]>): SQL;
  /** ` OVERRIDING SYSTEM VALUE` on PostgreSQL, where an INSERT may set a GENERATED ALWAYS id only so; nothing on SQLite. */
  readonly overriding: SQL;
  /**
   * After an insert that chose the table's `id`: moves its sequence past it on PostgreSQL (the next
   * generated id follows it, as SQLite's AUTOINCREMENT does by itself); nothing on SQLite.
   */
  idsPast(table: Table, id: number): Promise<void>;
  /**
   * In transaction: a lock held until the transaction ends (PostgreSQL: an advisory lock of the
   * space, or of `name` in it); nothing on SQLite, whose transactions take turns.
   */
  lock(space: keyof typeof LOCK_SPACE, name?: string): Promise<void>;
  /**
   * In transaction: deletes every row of the tables (listed so that references go first) and starts
   * their generated ids again from 1 (PostgreSQL: one TRUNCATE ... RESTART IDENTITY).
   */
  clear(tables: Table[]): Promise<void>;
  /**
   * Runs fn in one transaction, or in a savepoint of the caller's (db/transactor.ts): commits when
   * it resolves, rolls back and rethrows when it rejects.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Runs fn, which writes with one statement: on SQLite in a transaction of its own (one
   * connection: writes take turns, db/transactor.ts), on PostgreSQL as it is (a statement is
   * atomic by itself; on the caller's transaction when one is open). In a caller's transaction,
   * it joins it on both.
   */
  write<T>(fn: () => Promise<T>): Promise<T>;
  /** Reports a change of this database, emitted once the flow's transaction committed (db/transactor.ts). */
  report(change: Change): void;
  /**
   * Whether another connection committed since the last call (SQLite: its data_version, cheap); on
   * PostgreSQL always false: other instances' changes arrive over the change feed.
   */
  changedElsewhere(): () => boolean;
}

type Params = Record<string, unknown>;
/** A statement's parameters by name, each a drizzle placeholder. */
export type Placeholders<P extends Params> = { readonly [K in keyof P]: Placeholder<K & string, P[K]> };

interface Statement<P extends Params> {
  /** Runs it; resolves to how many rows it changed. */
  run(params: P): Promise<number>;
  /**
   * Runs it for what it changes, its answer not read: inside a caught batch (PostgreSQL's
   * `writes()`, db/pg/transactor.ts, whose statements are sent together once the batch's work is
   * done) it joins the batch; elsewhere as `run`. For a write the catching path makes.
   */
  send(params: P): Promise<void>;
}

interface Query<P extends Params, R> {
  all(params: P): Promise<R[]>;
  /** The first row, or undefined. */
  get(params: P): Promise<R | undefined>;
}

type Field = Column | SQL<unknown>;
type Fields = Record<string, Field>;
type ValueOf<F> = F extends Column ? (F["_"]["notNull"] extends true ? F["_"]["data"] : F["_"]["data"] | null) : F extends SQL<infer T> ? T : never;
/** The row `fields` decode to. */
type Row<F extends Fields> = { -readonly [K in keyof F]: ValueOf<F[K]> };

/**
 * A table as a shared store sees it: drizzle's Table (it renders its name) with its columns typed
 * without their dialect. Its row, `Row<ColumnsOf<...>>`, is the schema's $inferSelect.
 */
type Shared<T extends Table> = Table & { readonly [K in keyof T["_"]["columns"]]: Column<T["_"]["columns"][K]["_"]> };

/** The tables written once; each must have the same row type in both schemas (checked below). */
const SHARED = [
  "apiKeys",
  "dashboardGuards",
  "dashboardHandlers",
  "channelResponses",
  "dedupStats",
  "relayListeners",
  "alertIssues",
  "users",
  "sessions",
  "dashboardSettings",
  "translateAccounts",
  "translateOrders",
  "translateComments",
  "translateAttachments",
  "translateCommentAttachments",
  "translateLedger",
  "translateAccountKeys",
  "hooks",
  "events",
  "refusals",
  "hookContracts",
  "contractSeen",
  "bulkJobs",
  "savedViews",
  "hookTags",
  "hookReads",
  "hookMarks",
  "alertRules",
  "shareLinks",
  "notices",
  "notifierStats",
] as const;
type SharedName = (typeof SHARED)[number];

/**
 * Tables whose columns differ, seen by a shared store as the columns both backends have: SQLite's
 * channels row holds its hook counters, PostgreSQL keeps them in channel_counts (db/pg/hook-store.ts);
 * PostgreSQL's attempts hold the lease of the instance running them (db/pg/attempt-queue.ts).
 * The type hides the other columns, not the table: `columnsOf` lists them all.
 */
const COMMON = ["channels", "attempts"] as const;
type CommonName = (typeof COMMON)[number];
type CommonKeys<K extends CommonName> = keyof (typeof liteSchema)[K]["_"]["columns"] & keyof (typeof pgSchema)[K]["_"]["columns"];
/** A table with only the columns `C` of its own. */
type Subset<T extends Table, C extends keyof T["_"]["columns"]> = Table & { readonly [K in C]: Column<T["_"]["columns"][K]["_"]> };

type Tables = { readonly [K in SharedName]: Shared<(typeof liteSchema)[K]> } & { readonly [K in CommonName]: Subset<(typeof liteSchema)[K], CommonKeys<K>> };

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile when a shared table's row differs between the two schemas. */
const sameRows: { [K in SharedName]: Same<(typeof liteSchema)[K]["$inferSelect"], (typeof pgSchema)[K]["$inferSelect"]> } = {
  apiKeys: true,
  dashboardGuards: true,
  dashboardHandlers: true,
  channelResponses: true,
  dedupStats: true,
  relayListeners: true,
  alertIssues: true,
  users: true,
  sessions: true,
  dashboardSettings: true,
  translateAccounts: true,
  translateOrders: true,
  translateComments: true,
  translateAttachments: true,
  translateCommentAttachments: true,
  translateLedger: true,
  translateAccountKeys: true,
  hooks: true,
  events: true,
  refusals: true,
  hookContracts: true,
  contractSeen: true,
  bulkJobs: true,
  savedViews: true,
  hookTags: true,
  hookReads: true,
  hookMarks: true,
  alertRules: true,
  shareLinks: true,
  notices: true,
  notifierStats: true,
};
void sameRows;
/** Fails to compile when a column both backends have reads differently. */
const sameCommon: {
  [K in CommonName]: Same<
    Pick<(typeof liteSchema)[K]["$inferSelect"], CommonKeys<K> & keyof (typeof liteSchema)[K]["$inferSelect"]>,
    Pick<(typeof pgSchema)[K]["$inferSelect"], CommonKeys<K> & keyof (typeof pgSchema)[K]["$inferSelect"]>
  >;
} = { channels: true, attempts: true };
void sameCommon;

const pick = (schema: Record<SharedName | CommonName, Table>) => Object.fromEntries([...SHARED, ...COMMON].map((k) => [k, schema[k]])) as unknown as Tables;
const liteTables = pick(liteSchema);
const pgTables = pick(pgSchema);

/** The placeholders handed to a statement's builder: `p.label` is `sql.placeholder("label")`. */
const placeholders = new Proxy({}, { get: (_, name) => sql.placeholder(String(name)) }) as Placeholders<never>;

/** A column's bare name, for an INSERT's column list, a SET target or an ON CONFLICT target. */
export const name = (column: Column): SQL => sql`${sql.identifier(column.name)}`;

/** `(a, b, c)`: bare column names, for an INSERT's list or an ON CONFLICT target. */
export const names = (...columns: Column[]): SQL => sql`(${sql.join(columns.map(name), sql`, `)})`;

/** `excluded.c`: the value an upsert tried to insert into the column. */
export const excluded = (column: Column): SQL => sql`excluded.${name(column)}`;

type ColumnsOf<T> = { [K in keyof T as T[K] extends Column ? K : never]: T[K] };

/** The columns of a table by key (the fields of a whole row). */
export function columnsOf<T extends Table>(table: T): ColumnsOf<T> {
  return Object.fromEntries(Object.entries(table).filter(([, c]) => is(c, Column))) as never;
}

/**
 * `(c1, c2, ...) VALUES (:k1, :k2, ...)`: an INSERT of a whole row, its parameters named as the
 * table's keys (a row of the table's type is the parameters).
 */
export function rowValues(table: Table): SQL {
  const entries = Object.entries(columnsOf(table)) as [string, Column][];
  return sql`${names(...entries.map(([, c]) => c))} VALUES (${sql.join(
    entries.map(([k]) => sql.placeholder(k)),
    sql`, `,
  )})`;
}

/** Defined values of `row` with the table's columns of their keys (a value left undefined takes the column's default). */
function present(table: Table, row: Record<string, unknown>): [Column, unknown][] {
  const columns = columnsOf(table) as Record<string, Column>;
  return Object.entries(row).flatMap(([k, v]) => {
    if (v === undefined) return [];
    const column = columns[k];
    if (!column) throw new Error(`no column ${k} in ${getTableName(table)}`);
    return [[column, v] as [Column, unknown]];
  });
}

/**
 * `(c1, c2) VALUES (v1, v2), (...)`: an INSERT of rows built per call, each value encoded by its
 * column; the columns are those the first row defines (every row defines the same). `between`
 * goes before VALUES (the dialect's `overriding`).
 */
export function valuesOf(table: Table, rows: Record<string, unknown>[], between: SQL = sql``): SQL {
  const columns = present(table, rows[0]!).map(([c]) => c);
  const keys = Object.entries(rows[0]!).flatMap(([k, v]) => (v === undefined ? [] : [k]));
  const tuples = rows.map(
    (r) =>
      sql`(${sql.join(
        keys.map((k, i) => sql.param(r[k], columns[i]!)),
        sql`, `,
      )})`,
  );
  return sql`${names(...columns)}${between} VALUES ${sql.join(tuples, sql`, `)}`;
}

/** `c1 = v1, c2 = v2`: an UPDATE's SET of a patch built per call, each value encoded by its column. */
export function setOf(table: Table, patch: Record<string, unknown>): SQL {
  return sql.join(
    present(table, patch).map(([c, v]) => sql`${name(c)} = ${sql.param(v, c)}`),
    sql`, `,
  );
}

/** Column's own decoding: the value as the driver gave it (columns that convert override it). */
const asIs = Column.prototype.mapFromDriverValue;

/** Renders fields as a list and decodes a row of their values, in order. */
function selection(fields: Fields): { list: SQL; decode(values: unknown[]): Record<string, unknown> } {
  const entries = Object.entries(fields);
  const list = sql.join(
    entries.map(([, f]) => f),
    sql`, `,
  );
  const keys = entries.map(([k]) => k);
  // A column that reads values as they come (text, plain integers) is not called per value: rows
  // of hooks are read on the API's and the dashboard's hot paths.
  const decoders = entries.map(([, f]) => {
    const d = is(f, Column) ? (f as Column) : (f as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
    return d.mapFromDriverValue === asIs || d.mapFromDriverValue === noopDecoder.mapFromDriverValue ? undefined : d;
  });
  return {
    list,
    decode(values) {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const v = values[i];
        const d = decoders[i];
        row[keys[i]!] = v === null || v === undefined ? null : d ? d.mapFromDriverValue(v) : v;
      }
      return row;
    },
  };
}

/**
 * Renders fields as a list named by their keys (`expr AS "key"`), for a driver that reads rows as
 * objects by those names (SQLite's prepared statements: cheaper than reading arrays and building
 * the objects again), and decodes such a row in place: only its fields whose columns convert.
 */
function namedSelection(fields: Fields): { list: SQL; decode(row: Record<string, unknown>): Record<string, unknown> } {
  const entries = Object.entries(fields);
  const list = sql.join(
    entries.map(([k, f]) => sql`${f} AS ${sql.identifier(k)}`),
    sql`, `,
  );
  const converting = entries.flatMap(([k, f]) => {
    const d = is(f, Column) ? (f as Column) : (f as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
    return d.mapFromDriverValue === asIs || d.mapFromDriverValue === noopDecoder.mapFromDriverValue ? [] : [[k, d] as const];
  });
  return {
    list,
    decode(row) {
      for (const [k, d] of converting) if (row[k] !== null) row[k] = d.mapFromDriverValue(row[k]);
      return row;
    },
  };
}

/** Encodes a list parameter as JSON text (SQLite's `anyOf`, both backends' `each`). */
const asJson = { mapToDriverValue: (list: unknown) => JSON.stringify(list) };

const liteDialect = new SQLiteSyncDialect();
const pgDialectRender = new PgDialect();

/** SQLite's side: statements prepared on the connection; transactions from db/transactor.ts. */
export function sqliteDialect(client: Database): Dialect {
  const { transaction } = sqliteTransactor(client);
  const render = (query: SQL): { statement: SqliteStatement; params: unknown[] } => {
    const { sql: text, params } = liteDialect.sqlToQuery(query);
    return { statement: client.prepare(text), params };
  };
  const bind = (params: unknown[], values: Params) => fillPlaceholders(params, values) as never[];
  return {
    dialect: "sqlite",
    tables: liteTables,
    forUpdate: sql``,
    overriding: sql``,
    anyOf: (column, list) => sql`${column} IN (SELECT value FROM json_each(${sql.param(list, asJson)}))`,
    each: (list) => sql`json_each(${sql.param(list, asJson)})`,
    async rows(fields, build) {
      const { list, decode } = selection(fields);
      const { sql: text, params } = liteDialect.sqlToQuery(build(list));
      // Prepared per call, as drizzle's own session does: the texts vary, none is kept.
      return (client.prepare(text).values(...(params as never[])) as unknown[][]).map(decode) as never;
    },
    async run(query) {
      const { sql: text, params } = liteDialect.sqlToQuery(query);
      return client.prepare(text).run(...(params as never[])).changes;
    },
    idsPast: async () => {},
    lock: async () => {},
    async clear(tables) {
      for (const table of tables) client.run(`DELETE FROM "${getTableName(table)}"`);
      // AUTOINCREMENT keeps its counters in sqlite_sequence.
      const names = tables.map(getTableName);
      client.query(`DELETE FROM sqlite_sequence WHERE name IN (${names.map(() => "?").join(", ")})`).run(...names);
    },
    prepare(build) {
      const { statement, params } = render(build(placeholders));
      return {
        run: async (values) => statement.run(...bind(params, values)).changes,
        async send(values) {
          statement.run(...bind(params, values));
        },
      };
    },
    query(fields, build) {
      const { list, decode } = namedSelection(fields);
      const { statement, params } = render(build(list, placeholders));
      return {
        all: async (values) => (statement.all(...bind(params, values)) as Record<string, unknown>[]).map(decode) as never,
        async get(values) {
          const first = statement.get(...bind(params, values)) as Record<string, unknown> | null;
          return first ? (decode(first) as never) : undefined;
        },
      };
    },
    transaction,
    write: transaction,
    report: (change) => report(client, change),
    changedElsewhere() {
      const dataVersion = client.query("PRAGMA data_version");
      const now = () => (dataVersion.get() as { data_version: number }).data_version;
      let seen = now();
      return () => {
        const v = now();
        if (v === seen) return false;
        seen = v;
        return true;
      };
    },
  };
}

/** PostgreSQL's side: each statement runs on the flow's transaction or the pool (db/pg/transactor.ts). */
export function pgDialect(t: PgTransactor): Dialect {
  const render = (query: SQL) => {
    const { sql: text, params } = pgDialectRender.sqlToQuery(query);
    return { text, params };
  };
  const exec = async (query: SQL) => {
    const { text, params } = render(query);
    return t.exec().unsafe(text, params);
  };
  return {
    dialect: "postgres",
    tables: pgTables,
    forUpdate: sql` FOR UPDATE`,
    overriding: sql` OVERRIDING SYSTEM VALUE`,
    anyOf: (column, list) => sql`${column} = ANY(${list}::text[])`,
    // Sent as text and cast: a parameter typed jsonb would be encoded as JSON a second time.
    each: (list) => sql`jsonb_array_elements(CAST(${sql.param(list, asJson)} AS text)::jsonb) AS each(value)`,
    async rows(fields, build) {
      const { list, decode } = selection(fields);
      const { text, params } = render(build(list));
      return ((await t.exec().unsafe(text, params).values()) as unknown[][]).map(decode) as never;
    },
    run: async (query) => (await exec(query)).count,
    async idsPast(table, id) {
      const sequence = `${getTableName(table)}_id_seq`;
      await t.exec().unsafe(`SELECT setval('${sequence}', $1) WHERE $1 > (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${sequence})`, [id]);
    },
    async lock(space, name) {
      if (name === undefined) await t.exec().unsafe("SELECT pg_advisory_xact_lock($1, 0)", [LOCK_SPACE[space]]);
      else await t.exec().unsafe("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_SPACE[space], name]);
    },
    async clear(tables) {
      // One statement for tables that reference each other; the identities start again from 1.
      await t.exec().unsafe(`TRUNCATE ${tables.map((table) => `"${getTableName(table)}"`).join(", ")} RESTART IDENTITY`);
    },
    prepare(build) {
      const { text, params } = render(build(placeholders));
      return {
        run: async (values) => (await t.exec().unsafe(text, fillPlaceholders(params, values))).count,
        send: (values) => t.write(text, fillPlaceholders(params, values)),
      };
    },
    query(fields, build) {
      const { list, decode } = selection(fields);
      const { text, params } = render(build(list, placeholders));
      const rows = async (values: Params) => ((await t.exec().unsafe(text, fillPlaceholders(params, values)).values()) as unknown[][]).map(decode) as never[];
      return {
        all: rows,
        get: async (values) => (await rows(values))[0],
      };
    },
    transaction: t.transaction,
    write: (fn) => fn(),
    report: (change) => report(t.sql, change),
    changedElsewhere: () => () => false,
  };
}
