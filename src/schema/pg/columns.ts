import { bigint, customType } from "drizzle-orm/pg-core";

/**
 * Column types the PostgreSQL schema shares. The rules, against SQLite's storage classes:
 * - times (and durations in ms) are `bigint` milliseconds since the epoch, read as JS numbers;
 * - SQLite's 64-bit integer counters and ids are `bigint`; small bounded values (HTTP status,
 *   attempt numbers, positions) are `integer`;
 * - text holding JSON stays `text`: `jsonb` would reorder keys and drop duplicates;
 * - text that is a key, is indexed or is sorted on is `key()`: byte order, as in SQLite.
 */

/** Milliseconds (a time since the epoch, or a duration), as a JS number. */
export const ms = (name: string) => bigint(name, { mode: "number" });

/** A 64-bit integer (id, counter, cents) as a JS number: exact up to 2^53. */
export const int8 = (name: string) => bigint(name, { mode: "number" });

/**
 * Text compared and sorted byte by byte (COLLATE "C"), as SQLite's BINARY collation does, whatever
 * the database's default collation: hook ids, channel names and emails sort the same on both
 * backends, and b-tree comparisons are a memcmp rather than a locale's strcoll.
 */
export const key = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * Exact bytes (drizzle 0.45's pg-core has no bytea). Bun.sql sends a Buffer or Uint8Array as a
 * binary parameter and reads bytea back as a Buffer.
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});
