import type { SQL } from "bun";
import type { Worker } from "../../lib/worker";
import { LOCK_SPACE } from "./locks";

/** How often an instance that does not hold a singleton's lock tries again. */
export const SINGLETON_RETRY_MS = 5_000;

/**
 * Runs `worker` on one instance at a time: the instance that holds a session advisory lock named
 * after it, on a connection it keeps for that purpose. When that instance dies or loses the
 * database, its connection closes, the lock is free, and another instance's next try takes it.
 */
export function singleton(sql: SQL, worker: Worker): Worker & { close(): Promise<void> } {
  let held: (SQL & { release(): void }) | undefined;

  async function holds(): Promise<boolean> {
    if (held) {
      try {
        await held.unsafe("SELECT 1");
        return true;
      } catch {
        held = undefined; // the connection is gone, and the lock with it
      }
    }
    const connection = (await sql.reserve()) as SQL & { release(): void };
    try {
      const [r] = (await connection.unsafe(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok`, [LOCK_SPACE.singleton, worker.name])) as { ok: boolean }[];
      if (r?.ok) return ((held = connection), true);
    } catch {
      // Not reachable now: try again later.
    }
    connection.release();
    return false;
  }

  return {
    name: worker.name,
    async tick(now) {
      if (!(await holds())) return now + SINGLETON_RETRY_MS;
      return worker.tick(now);
    },
    async close() {
      const c = held;
      held = undefined;
      if (!c) return;
      await c.unsafe(`SELECT pg_advisory_unlock($1, hashtext($2))`, [LOCK_SPACE.singleton, worker.name]).catch(() => {});
      c.release();
    },
  };
}
