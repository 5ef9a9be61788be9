import type { HookStatus } from "../hooks/store";

/**
 * What changed, in order: a hook caught or changed (or deleted), a channel's stats or state.
 * Entries hold only keys (a few dozen bytes each); the resource is read when an entry is sent,
 * so recording costs the catching endpoint no database read and no serialising.
 */
export type Change = {
  seq: number;
  kind: "hook" | "channel" | "refusal" | "issue" | "breaker";
  /** A hook's id, a channel's name, a refusal's JSON, or "<event>/<issue id>". */
  key: string;
  /** The channel of a hook or refusal. */
  channel?: string;
  /** The channels an event of no one channel concerns (a handler's breaker: the channels it runs on). */
  channels?: readonly string[];
  caught?: CaughtSnapshot;
  /** A hook's status when the change was recorded, where known without a read (caught: pending). */
  status?: HookStatus;
};

/**
 * A hook as it was caught, kept with its change while a stream wants every hook's summary: its
 * summary is made from this (no database read, no body held), since it is the hook as it was when
 * the change happened.
 */
export type CaughtSnapshot = {
  method: string;
  query: string;
  contentType: string | null;
  ip: string;
  createdAt: number;
  size: number;
  eventType: string;
  /** Whether a guard authenticated its sender (hooks/store.ts RawHook). */
  verified?: boolean | null;
  /** bodyPreview of the body (hooks/preview.ts): a short string, not the body. */
  preview: string;
};

/**
 * A change as sent: the SSE event name and its JSON, read when it is sent; for a hook also its
 * summary (`fields=summary`: the resource without body, payload, headers and events, with `size`).
 */
export type Rendered =
  | {
      event: string;
      data?: string;
      summary?: string;
      channel: string;
      status?: HookStatus;
      /** For an event of no one channel (`channel` ""): the channels it concerns, for a caller limited to channels (live/select.ts). */
      channels?: readonly string[];
    }
  | undefined;

/** How many changes are kept for clients that resume with Last-Event-ID. */
export const CHANGES_KEPT = 10_000;

/**
 * The log of changes that streams read: a ring of the last `kept` changes with increasing
 * sequence numbers. Event ids are `<epoch>-<seq>`, the epoch being this process's start, so an id
 * from before a restart is known to be stale.
 */
export function createChangeLog(opts: { kept?: number; epoch: string }) {
  const kept = opts.kept ?? CHANGES_KEPT;
  const ring: Change[] = [];
  let seq = 0;
  const listeners = new Set<() => void>();
  let scheduled = false;

  function record(change: Change): void {
    ring.push(change);
    // Trimmed once it holds twice what it keeps: one splice per `kept` records, not a shift per record.
    if (ring.length >= kept * 2) ring.splice(0, ring.length - kept);
    if (listeners.size > 0 && !scheduled) {
      scheduled = true;
      // Once per turn of the event loop: a batch of caught hooks wakes the streams once.
      setImmediate(() => {
        scheduled = false;
        for (const l of listeners) l();
      });
    }
  }

  return {
    hook: (channel: string, id: string, caught?: CaughtSnapshot, status?: HookStatus) => record({ seq: ++seq, kind: "hook", key: id, channel, caught, status }),
    channel: (name: string) => record({ seq: ++seq, kind: "channel", key: name }),
    /** A refused request: the Refusal as JSON (nothing is stored to read back). */
    refusal: (channel: string, json: string) => record({ seq: ++seq, kind: "refusal", key: json, channel }),
    /** An alert's issue event (it has no channel: a stream filtered by channel leaves it out). */
    issue: (event: string, id: string) => record({ seq: ++seq, kind: "issue", key: `${event}/${id}`, channel: "" }),
    /**
     * A handler's breaker transition: its event name and JSON (no channel: a stream filtered by
     * channel leaves it out), and the channels the handler runs on (a limited caller's stream
     * gets it when one of them is the caller's).
     */
    breaker: (event: string, json: string, channels: readonly string[]) =>
      record({ seq: ++seq, kind: "breaker", key: `${event}/${json}`, channel: "", channels }),
    head: () => seq,
    /** Changes after `after`, oldest first; undefined when some of them are no longer kept. */
    since(after: number): Change[] | undefined {
      if (after >= seq) return [];
      const first = ring[0]?.seq ?? seq + 1;
      if (after < first - 1) return undefined;
      return ring.slice(after - first + 1);
    },
    epoch: opts.epoch,
    kept,
    idOf: (s: number) => `${opts.epoch}-${s}`,
    /** The sequence number of an event id of this process, or undefined (garbage, another process). */
    parseId(id: string | null): number | undefined {
      const m = id ? /^([0-9a-z]+)-(\d{1,15})$/.exec(id.trim()) : null;
      if (!m || m[1] !== opts.epoch) return undefined;
      const n = Number(m[2]);
      return n <= seq ? n : undefined;
    },
    listen(fn: () => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

export type ChangeLog = ReturnType<typeof createChangeLog>;
