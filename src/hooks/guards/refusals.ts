import type { Clock } from "../../lib/clock";
import type { Log } from "../../lib/log";
import type { RefusalQuery, RefusalStore, StoredRefusal } from "./refusal-store";
import { loadRequest, saveRequest } from "./saved-request";
import { type Diagnosis, SKIPPED_DIAGNOSIS } from "./diagnosis";
import type { GuardInput, Refusal, RefusalInput } from "./types";

export type { RefusalQuery } from "./refusal-store";

/** How many refusals are kept, newest first; older ones are deleted as new ones come. */
export const REFUSALS_KEPT = 1000;

/**
 * The saved requests' bytes kept, at most, over every kept refusal: anyone can send refused
 * requests, each up to its channel's max_body, and REFUSALS_KEPT of them must not fill a disk. The
 * newest requests within it stay (a refusal past it keeps its row and diagnosis, not its request).
 */
export const REQUESTS_KEPT_BYTES = 64 * 1024 * 1024;

/** The time one batch's diagnoses may take together, in ms; the refusals past it are diagnosed `skipped`. */
export const DIAGNOSIS_BATCH_MS = 100;

/**
 * The bodies a batch of refusals may hold in memory until their diagnoses (one turn of the event
 * loop): each body is whole, bounded by its channel's max_body as it was read, and past this sum
 * the next ones are diagnosed `skipped` and kept without their request, so a flood of large
 * refused bodies cannot grow the buffer.
 */
export const PENDING_BODIES = 64 * 1024 * 1024;

export interface Refusals {
  /** Remembers a refused request; cheap, never throws, bounded. */
  record(refusal: RefusalInput): void;
  /**
   * The newest refusals first, of one channel or guard when given. Writes what is still buffered
   * first. Rejects with the database's error.
   */
  list(query: RefusalQuery): Promise<Refusal[]>;
  /** One refusal by its id, once what is buffered is written; undefined when unknown (or no longer kept). */
  get(id: string): Promise<Refusal | undefined>;
  /**
   * Works out a refusal's diagnosis again from the request saved with it, as of when it was refused,
   * and stores it: the refusal, or undefined when unknown; its diagnosis stays null when no request
   * was saved (not a signature refusal, or one stored before requests were kept).
   */
  rediagnose(id: string): Promise<Refusal | undefined>;
  /** Writes the buffered refusals now, resolving once every earlier write is done; never rejects. */
  flush(): Promise<void>;
}

/**
 * Refusals are buffered in memory and written in one transaction on the next turn of the event
 * loop, so a flood of refused requests costs one insert batch per turn, never a write per request,
 * and the buffer itself never holds more than the bound.
 */
export function createRefusals(deps: {
  store: RefusalStore;
  clock: Clock;
  log?: Log;
  kept?: number;
  /** REQUESTS_KEPT_BYTES (tests make it small). */
  keptBytes?: number;
  /** Why a signature guard refused a request (diagnose/); run after the answer, before the write. */
  diagnose?: (guard: string, request: GuardInput, reason: string, at?: number) => Diagnosis | undefined;
  /** Told each diagnosis once it is known (the stream's refusal.diagnosis event). */
  diagnosed?: (refusal: Refusal) => void;
  /**
   * The provider's delivery id of a refused request (dedup/ deliveryIdOf), worked out when the
   * batch is written (after the answers), stored with it for `has:refusal` (marks/).
   */
  deliveryId?: (channel: string, headers: Record<string, string>, body: Uint8Array | undefined) => string | undefined;
}): Refusals {
  const { store, clock, log } = deps;
  const keep = deps.kept ?? REFUSALS_KEPT;
  const keepBytes = deps.keptBytes ?? REQUESTS_KEPT_BYTES;
  let buffer: StoredRefusal[] = [];
  /** The bytes of the bodies of the buffered requests (PENDING_BODIES bounds it). */
  let pendingBytes = 0;
  /** The requests of the buffered 401s, by refusal, until their diagnosis is worked out. */
  const requests = new WeakMap<Refusal, GuardInput>();

  /** Diagnoses a batch: after the answers (this runs on a later turn), each within its budget, never throwing. */
  function diagnoseBatch(batch: StoredRefusal[]): void {
    if (!deps.diagnose) return;
    const started = performance.now();
    for (const r of batch) {
      const request = requests.get(r);
      if (!request) continue;
      requests.delete(r);
      // Kept with the refusal (bounded like it: the newest REFUSALS_KEPT), so it can be diagnosed again.
      try {
        r.savedRequest = saveRequest(request);
      } catch {
        // Not saved: the refusal is still written.
      }
      // A flood of bad signatures must not hold the event loop: past the batch's budget, a distinct `skipped`.
      if (performance.now() - started > DIAGNOSIS_BATCH_MS) {
        r.diagnosis = { ...SKIPPED_DIAGNOSIS, tried: [] };
        deps.diagnosed?.(r);
        continue;
      }
      try {
        r.diagnosis = deps.diagnose(r.guard, request, r.reason) ?? null;
        if (r.diagnosis) deps.diagnosed?.(r);
      } catch (error) {
        log?.warn("could not diagnose a refusal", { guard: r.guard, error: String(error) });
      }
    }
  }
  let scheduled = false;
  /** The writes begun, one after another: flush() resolves after the last. */
  let writing: Promise<void> = Promise.resolve();

  function flush(): Promise<void> {
    scheduled = false;
    if (buffer.length > 0) {
      const batch = buffer;
      buffer = [];
      pendingBytes = 0;
      if (deps.deliveryId)
        for (const r of batch)
          try {
            if (r.kind === "refused") r.deliveryId = deps.deliveryId(r.channel, r.headers, requests.get(r)?.body) ?? null;
          } catch {
            // Without its delivery id the refusal is still written.
          }
      diagnoseBatch(batch);
      writing = writing
        .then(() => store.insert(batch, keep, keepBytes))
        .catch((error) => {
          // Losing a few refusal records is better than failing the requests that caused them.
          log?.warn("could not store refusals", { count: batch.length, error: String(error) });
        });
    }
    return writing;
  }

  return {
    record(refusal) {
      try {
        const kept: StoredRefusal = {
          id: refusal.id,
          kind: refusal.kind,
          query: refusal.query.slice(0, 4096),
          headers: refusal.headers,
          channel: refusal.channel.slice(0, 64),
          guard: refusal.guard.slice(0, 64),
          status: refusal.status,
          reason: refusal.reason.slice(0, 500),
          ip: refusal.ip.slice(0, 64),
          method: refusal.method.slice(0, 32),
          createdAt: clock.now(),
          diagnosis: null,
        };
        if (refusal.request) {
          const bytes = refusal.request.body.byteLength;
          if (pendingBytes + bytes <= PENDING_BODIES) {
            pendingBytes += bytes;
            requests.set(kept, refusal.request);
          } else kept.diagnosis = { ...SKIPPED_DIAGNOSIS, tried: [] };
        }
        buffer.push(kept);
        if (buffer.length > keep) buffer.splice(0, buffer.length - keep);
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      } catch {
        // record() sits on the refusal path: nothing it does may turn a 4xx into a 500.
      }
    },
    async list(query) {
      await flush();
      return store.list(query);
    },
    async get(id) {
      await flush();
      return id ? store.get(id) : undefined;
    },
    async rediagnose(id) {
      await flush();
      const r = id ? await store.get(id) : undefined;
      if (!r || !deps.diagnose) return r;
      const saved = await store.savedRequest(id);
      const request = saved === undefined ? undefined : loadRequest(saved);
      if (!request) return r;
      const diagnosis = deps.diagnose(r.guard, request, r.reason, r.createdAt) ?? null;
      await store.setDiagnosis(id, diagnosis);
      const done = { ...r, diagnosis };
      if (diagnosis) deps.diagnosed?.(done);
      return done;
    },
    flush,
  };
}
