import type { Database } from "bun:sqlite";
import type { Db } from "../../db/open";
import type { Clock } from "../../lib/clock";
import type { Log } from "../../lib/log";
import type { Refusal, RefusalInput } from "./types";

/** How many refusals are kept, newest first; older ones are deleted as new ones come. */
export const REFUSALS_KEPT = 1000;

export type RefusalQuery = { channel?: string; guard?: string; limit: number };

export interface Refusals {
  /** Remembers a refused request; cheap, never throws, bounded. */
  record(refusal: RefusalInput): void;
  /** The newest refusals first, of one channel or guard when given. Writes what is still buffered first. */
  list(query: RefusalQuery): Refusal[];
  /** Writes the buffered refusals now; never throws. */
  flush(): void;
}

type RefusalRecord = Omit<Refusal, "createdAt"> & { created_at: number };

/**
 * Refusals are buffered in memory and written in one transaction on the next turn of the event
 * loop, so a flood of refused requests costs one insert batch per turn, never a write per request,
 * and the buffer itself never holds more than the bound.
 */
export function createRefusals(deps: { db: Db; clock: Clock; log?: Log; kept?: number }): Refusals {
  const { clock, log } = deps;
  const kept = deps.kept ?? REFUSALS_KEPT;
  const sql: Database = deps.db.$client;
  const insert = sql.prepare(
    "INSERT INTO refusals (channel, guard, status, reason, ip, method, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  // Deletes everything older than the `kept`-th newest row (a no-op while there are fewer).
  const prune = sql.prepare(
    "DELETE FROM refusals WHERE id <= (SELECT id FROM refusals ORDER BY id DESC LIMIT 1 OFFSET ?)",
  );
  const write = sql.transaction((batch: Refusal[]) => {
    for (const r of batch) insert.run(r.channel, r.guard, r.status, r.reason, r.ip, r.method, r.createdAt);
    prune.run(kept);
  });
  let buffer: Refusal[] = [];
  let scheduled = false;

  function flush(): void {
    scheduled = false;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    try {
      write.immediate(batch);
    } catch (error) {
      // Losing a few refusal records is better than failing the requests that caused them.
      log?.warn("could not store refusals", { count: batch.length, error: String(error) });
    }
  }

  return {
    record(refusal) {
      try {
        buffer.push({
          channel: refusal.channel.slice(0, 64),
          guard: refusal.guard.slice(0, 64),
          status: refusal.status,
          reason: refusal.reason.slice(0, 500),
          ip: refusal.ip.slice(0, 64),
          method: refusal.method.slice(0, 32),
          createdAt: clock.now(),
        });
        if (buffer.length > kept) buffer.splice(0, buffer.length - kept);
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      } catch {
        // record() sits on the refusal path: nothing it does may turn a 4xx into a 500.
      }
    },
    list({ channel, guard, limit }) {
      flush();
      const where: string[] = [];
      const args: (string | number)[] = [];
      if (channel !== undefined) where.push("channel = ?"), args.push(channel);
      if (guard !== undefined) where.push("guard = ?"), args.push(guard);
      const rows = sql
        .query<RefusalRecord, (string | number)[]>(
          `SELECT channel, guard, status, reason, ip, method, created_at FROM refusals
           ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`,
        )
        .all(...args, limit);
      return rows.map(({ created_at, ...r }) => ({ ...r, createdAt: created_at }));
    },
    flush,
  };
}
