import type { Refusal, RefusalKind } from "./types";

export type RefusalQuery = { channel?: string; guard?: string; status?: number; kind?: RefusalKind; limit: number };

/**
 * Storage of the requests guards refused, newest kept, met by SQLite and PostgreSQL (db/sqlite/ and
 * db/pg/refusal-store.ts). Every method is async; any rejects with
 * the database's own error (nothing is then committed).
 */
/**
 * A refusal as written: with its saved request (savedRequest() reads it back), when one is kept, and
 * the provider's delivery id of the request (namespaced as dedup/ makes it), when it carries one.
 */
export type StoredRefusal = Refusal & { savedRequest?: string | null; deliveryId?: string | null };

export interface RefusalStore {
  /**
   * In a transaction of its own: stores the batch, then deletes all but the newest `kept`, and
   * forgets the saved requests of the older refusals past the newest `keptBytes` of them (their
   * rows stay, with their diagnoses; REQUESTS_KEPT_BYTES when not given).
   */
  insert(batch: readonly StoredRefusal[], kept: number, keptBytes?: number): Promise<void>;
  /** The newest first, of one channel, guard, status and/or kind when given, at most `limit`. */
  list(query: RefusalQuery): Promise<Refusal[]>;
  /** The refusal with this id, or undefined. */
  get(id: string): Promise<Refusal | undefined>;
  /** The refused request saved with this refusal (hooks/guards/saved-request.ts), or undefined. */
  savedRequest(id: string): Promise<string | undefined>;
  /** Replaces this refusal's diagnosis; false when no such refusal is kept. */
  setDiagnosis(id: string, diagnosis: Refusal["diagnosis"]): Promise<boolean>;
}
