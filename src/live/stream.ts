import type { Change, ChangeLog, Rendered } from "./bus";
import { createFrameWriter } from "./frames";
import { adlerCombine, deflateTrailer, DEFLATE_HEADER, encodePiece as encode, type Piece } from "./deflate";
import { createStreamCounter, type StreamLimits } from "./limits";
import { startOf, wantsEverySummary, type StreamFilter } from "./select";
import { createWriteLoop } from "./schedule";
import { createSink, type Sink } from "./sink";
import { makeWrite } from "./write";

export type { StreamFilter } from "./select";

/**
 * Bytes the server may hold unsent for a client before it is disconnected (it resumes with
 * Last-Event-ID). What the operating system's socket buffers hold comes on top.
 */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
export const HEARTBEAT_MS = 15_000;
/** How often an open stream's credentials are checked again (when it is written to). */
export const ADMISSION_CHECK_MS = 1000;

const encoder = new TextEncoder();

/** How a stream is opened: who holds it (for the limits), and what it was sent with. */
export type OpenOptions = {
  /** The credential the stream counts against (an API key, a dashboard user); one shared by all when absent. */
  credential?: string;
  /** Whether its credentials still hold (checked at most once a second, when it is written to). */
  admitted?: () => boolean;
  /** Sent as `Content-Encoding: deflate` (live/deflate.ts). */
  deflate?: boolean;
};

/**
 * Server-Sent Events for every open stream. One loop per wake-up reads each change once and
 * writes it to every stream whose filter it passes (live/select.ts decides which, live/write.ts
 * makes the bytes); a stream whose unsent bytes pass `maxUnread` is disconnected at once and what
 * was kept for it freed (live/sink.ts), so a stalled client never slows catching nor grows memory.
 * A heartbeat comment keeps proxies and idle timeouts from closing a quiet stream. `open` throws
 * AppError "rate_limited" past the limits on open streams (live/limits.ts).
 */
export function createStreams(deps: {
  log: ChangeLog;
  render: (c: Change, full: boolean) => Rendered | Promise<Rendered>;
  heartbeatMs?: number;
  maxUnread?: number;
  limits?: StreamLimits;
}) {
  const { log, render } = deps;
  const maxUnread = deps.maxUnread ?? MAX_UNREAD_BYTES;
  type Client = {
    filter: StreamFilter;
    cursor: number;
    sink: Sink;
    deflate: boolean;
    /** The Adler-32 of what a deflate stream was sent so far, for its trailer. */
    adler: number;
    admitted?: () => boolean;
    checkedAt: number;
    release: () => void;
  };
  const clients = new Set<Client>();
  const counter = createStreamCounter(deps.limits);
  let closed = false;

  /** Ends a stream: cleanly when it has taken everything (a deflate stream with its trailer), else by disconnecting it. */
  function drop(c: Client, error?: Error): void {
    if (!clients.delete(c)) return;
    c.release();
    if (error || c.sink.unread() > 0) c.sink.drop(error ?? new Error("stream ended"));
    else c.sink.end(c.deflate ? deflateTrailer(c.adler) : undefined);
  }

  /** Ends a stream whose key was revoked or whose session ended since it opened. */
  function stillAdmitted(c: Client): boolean {
    if (!c.admitted || performance.now() - c.checkedAt < ADMISSION_CHECK_MS) return true;
    c.checkedAt = performance.now();
    if (c.admitted()) return true;
    drop(c);
    return false;
  }

  /** Writes text, or a piece encoded for this client (plain or deflated, as `encode` made it). */
  function send(c: Client, data: string | Piece): void {
    if (!clients.has(c) || !stillAdmitted(c)) return;
    const piece = typeof data === "string" ? encode(encoder.encode(data), c.deflate) : data;
    if (c.deflate) c.adler = adlerCombine(c.adler, piece.adler!, piece.length);
    c.sink.write(piece.bytes);
    if (c.sink.unread() > maxUnread) drop(c, new Error("client too slow"));
  }

  const frames = createFrameWriter(log.epoch);

  /** One write: every change since the streams' positions, to each stream that gets it; resolves with how many changes it read. */
  async function pump(again: () => void): Promise<number> {
    const from = Math.min(...[...clients].map((c) => c.cursor));
    if (!Number.isFinite(from)) return 0;
    const changes = log.since(from) ?? [];
    // Whole hooks (body, payload, events) are read only when a stream wants them.
    const full = [...clients].some((c) => c.filter.fields !== "summary");
    const last = changes.at(-1)?.seq;
    const readers: Client[] = [];
    for (const c of clients) {
      if (last === undefined || c.cursor >= last) continue;
      // A stream that resumed (Last-Event-ID) from before what this write read, or that wants
      // whole hooks and joined while this write was made without them: the next write serves it.
      if (c.cursor < from || (c.filter.fields !== "summary" && !full)) {
        again();
        continue;
      }
      readers.push(c);
    }
    // Between pieces a burst (a replay, large bodies) lets the sockets drain before a client counts as slow.
    const piece = Math.max(1024, Math.min(64 * 1024, maxUnread / 4));
    const plans = await makeWrite(changes, readers, { render, full, frames, piece });
    // Positions move only once every plan is made: a render that throws (a database error) loses
    // no client its changes, the next write makes them again.
    for (const [c] of plans) c.cursor = last!;
    for (let i = 0; plans.some(([, pieces]) => i < pieces.length); i++) {
      for (const [c, pieces] of plans) if (i < pieces.length) send(c, pieces[i]!);
      if (plans.some(([c]) => clients.has(c) && c.sink.unread() > maxUnread / 2)) await new Promise((r) => setImmediate(r));
    }
    // A client whose cursor fell out of the kept changes starts over.
    for (const c of clients) if (log.since(c.cursor) === undefined) reset(c);
    return changes.length;
  }
  const loop = createWriteLoop(log, pump);
  const wake = loop.wake;

  function reset(c: Client): void {
    c.cursor = log.head();
    send(c, `id: ${log.idOf(c.cursor)}\nevent: reset\ndata: {}\n\n`);
  }

  log.listen(wake);
  const heartbeat = setInterval(() => {
    // A client with bytes still unsent needs no heartbeat: the connection is not idle.
    for (const c of clients) if (c.sink.unread() === 0) send(c, ": heartbeat\n\n");
  }, deps.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref?.();

  return {
    /**
     * A stream of `hook` and `channel` events passing the filter. With a Last-Event-ID of this
     * process still kept, it first sends every change after it; with one that is not (too old,
     * from before a restart), an event `reset` says to read the lists again. Throws AppError
     * "rate_limited" when the credential, or the server, holds the most streams it may.
     */
    open(filter: StreamFilter, lastEventId: string | null, opts: OpenOptions = {}): ReadableStream<Uint8Array> {
      const release = closed ? () => {} : counter.admit(opts.credential ?? "");
      const deflate = opts.deflate ?? false;
      const client: Client = {
        filter,
        cursor: log.head(),
        deflate,
        adler: 1,
        admitted: opts.admitted,
        checkedAt: performance.now(),
        release,
        sink: createSink(() => {
          clients.delete(client);
          release();
        }),
      };
      if (deflate) client.sink.write(DEFLATE_HEADER);
      if (closed) return (client.sink.end(deflate ? deflateTrailer(1) : undefined), client.sink.stream);
      clients.add(client);
      send(client, "retry: 2000\n: connected\n\n");
      const start = startOf(lastEventId, log);
      if (start.reset) reset(client);
      else if (start.cursor < log.head()) {
        client.cursor = start.cursor;
        wake();
      }
      return client.sink.stream;
    },
    count: () => clients.size,
    /**
     * Whether an open stream wants the summary of every hook it passes (`fields=summary` without
     * `latest` or `hook`): only then is a caught hook's summary worth keeping with its change.
     * Dashboards take the newest few or one hook, read back when sent.
     */
    wantsEverySummary(): boolean {
      for (const c of clients) if (wantsEverySummary(c.filter)) return true;
      return false;
    },
    /** Ends every stream cleanly and refuses new ones (shutdown). */
    close(): void {
      closed = true;
      clearInterval(heartbeat);
      loop.stop();
      for (const c of [...clients]) drop(c);
    },
  };
}

export type Streams = ReturnType<typeof createStreams>;
