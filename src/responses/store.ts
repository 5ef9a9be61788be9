import type { Db } from "../db/sqlite/open";
import { statementCache } from "../db/sqlite/statements";
import { report, sqliteTransactor } from "../db/transactor";

/**
 * Storage of the custom responses set through the management API (the config file's are never
 * stored), by channel, each as the JSON text PUT took. Every method is async and writes in a
 * transaction of its own; any method rejects with the database's own error.
 */
export interface ResponseStore {
  /** Every stored setting, by channel. */
  list(): Promise<{ channel: string; setting: string }[]>;
  /** Stores the channel's setting, replacing any earlier one. */
  save(channel: string, setting: string, updatedAt: number): Promise<void>;
  /** Deleting a setting that does not exist is no error. */
  remove(channel: string): Promise<void>;
}

/** The SQLite side. */
export function createResponseStore(db: Db): ResponseStore {
  const sql = db.$client;
  const q = statementCache(sql);
  const { transaction } = sqliteTransactor(sql);
  return {
    async list() {
      return q("SELECT channel, setting FROM channel_responses ORDER BY channel").all() as { channel: string; setting: string }[];
    },
    save: (channel, setting, updatedAt) =>
      transaction(async () => {
        q(
          "INSERT INTO channel_responses (channel, setting, updated_at) VALUES (?, ?, ?) ON CONFLICT (channel) DO UPDATE SET setting = excluded.setting, updated_at = excluded.updated_at",
        ).run(channel, setting, updatedAt);
        report(sql, { kind: "state", part: "responses" });
      }),
    remove: (channel) =>
      transaction(async () => {
        if (q("DELETE FROM channel_responses WHERE channel = ?").run(channel).changes > 0) report(sql, { kind: "state", part: "responses" });
      }),
  };
}
