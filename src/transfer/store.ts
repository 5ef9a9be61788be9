import type { EventRow, RawHook } from "../hooks/store";

/** A hook as an export holds it: the stored row, its events, and the hook it was made from. */
export type TransferHook = RawHook & {
  events: EventRow[];
  sourceId: string | null /** Its tags (docs/tags.md), in export lines and imports. */;
  tags?: string[];
};

/**
 * Stores hooks whole (import, and a hook sent into a channel from another): ids, statuses, times,
 * headers, exact bodies and events kept. Met by SQLite (db/sqlite/transfer-store.ts) and PostgreSQL
 * (db/pg/transfer-store.ts).
 */
export interface TransferStore {
  /**
   * In transaction: stores each hook whose id is not taken, with its events, creates its channel
   * when new (with `guardsOfNewChannel`) and counts it by its status; a taken id is skipped.
   * Resolves to the ids stored (in no set order). Reports each stored hook once committed. Rejects with the
   * database's error.
   */
  importHooks(rows: readonly TransferHook[], guardsOfNewChannel: (channel: string) => string[]): Promise<string[]>;
}
