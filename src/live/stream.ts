import type { HookStatus } from "../hooks/store";
import type { Change, ChangeLog, Rendered } from "./bus";
import { createFrameWriter } from "./frames";
import { adlerCombine, deflateTrailer, DEFLATE_HEADER, encodePiece as encode, type Piece } from "./deflate";

/** Bytes a client may leave unread before it is dropped (it resumes with Last-Event-ID). */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;
export const HEARTBEAT_MS = 15_000;
/** Shortest time between two writes of the streams (a dashboard's 200 ms budget leaves room). */
export const GATHER_MS = 25;
/**
 * The same under load: once a write carried BUSY_CHANGES changes or more, the next waits this
 * long. A write to a socket costs far more than the bytes in it (tens of µs on loopback), so 50
 * streams written 7 times a second instead of 40 spare the catching endpoint most of it, and a
 * hook still shows within 200 ms.
 */
export const GATHER_BUSY_MS = 150;
export const BUSY_CHANGES = 100;
/** How often an open stream's credentials are checked again (when it is written to). */
export const ADMISSION_CHECK_MS = 1000;

/**
 * Which events a stream gets, and with `fields: "summary"` hooks without their bodies (a list needs
 * no more); with `latest`, of the hooks changed since its last write only the newest that many (a
 * screen that shows the newest hooks needs no more, however many arrive); with `hook`, of the hooks
 * only that one (a hook's screen).
 */
export type StreamFilter = { channel?: string; status?: HookStatus; fields?: "summary"; latest?: number; hook?: string };

const encoder = new TextEncoder();

/**
 * Server-Sent Events for every open stream. One loop per wake-up reads each change once and
 * writes it to every stream it passes the filter of; a stream whose unread bytes pass
 * `maxUnread` is dropped at once, its queue freed, so a stalled client never slows catching nor
 * grows memory (it resumes from its last id). A heartbeat comment keeps proxies and idle
 * timeouts from closing a quiet stream.
 */
export function createStreams(deps: {
  log: ChangeLog; render: (c: Change, full: boolean) => Rendered | Promise<Rendered>; heartbeatMs?: number; maxUnread?: number;
}) {
  const { log, render } = deps;
  const maxUnread = deps.maxUnread ?? MAX_UNREAD_BYTES;
  type Client = {
    filter: StreamFilter; cursor: number; controller: ReadableStreamDefaultController<Uint8Array>; dropped: boolean;
    /** Sent as `Content-Encoding: deflate` (live/deflate.ts): the Adler-32 of what it was sent so far. */
    deflate?: { adler: number };
    /** Whether its credentials still hold, and when that was last asked (at most once a second). */
    admitted?: () => boolean; checkedAt: number;
  };
  const clients = new Set<Client>();
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;

  function drop(c: Client, error?: Error): void {
    if (c.dropped) return;
    c.dropped = true;
    clients.delete(c);
    try {
      if (error) c.controller.error(error);
      else {
        // A deflate stream ends with its final block and checksum, so clients see a clean end.
        if (c.deflate) c.controller.enqueue(deflateTrailer(c.deflate.adler));
        c.controller.close();
      }
    } catch {
      // already closed by the client
    }
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
    if (c.dropped || !stillAdmitted(c)) return;
    if ((c.controller.desiredSize ?? 0) <= 0) return drop(c, new Error("client too slow"));
    const piece = typeof data === "string" ? encode(encoder.encode(data), !!c.deflate) : data;
    if (c.deflate) {
      c.deflate.adler = adlerCombine(c.deflate.adler, piece.adler!, piece.length);
    }
    c.controller.enqueue(piece.bytes);
  }

  const passes = (f: StreamFilter, r: NonNullable<Rendered>) =>
    (!f.channel || f.channel === r.channel) && (!f.status || r.event !== "hook" || r.status === f.status);

  /**
   * The changes of a write a client gets, by their index, oldest first: those after its position
   * that pass its filter; with `latest`, of the hooks only the newest `latest` (the others are
   * neither read nor sent, and `skipped` counts those of its channel).
   */
  async function pick(c: Client, changes: Change[], renderAt: (i: number) => Promise<Rendered>, superseded: (c: Change) => boolean) {
    const picked: number[] = [];
    let hooks = 0;
    let skipped = 0;
    const latest = c.filter.latest ?? Infinity;
    // With `latest`, a hook changed twice in one write takes one place: its newest change, read
    // when sent, carries its newest state.
    const seen = new Set<string>();
    for (let i = changes.length - 1; i >= 0; i--) {
      const change = changes[i]!;
      if (change.seq <= c.cursor) break;
      if (superseded(change)) continue;
      if (latest !== Infinity && change.kind === "hook") {
        if (seen.has(change.key)) continue;
        seen.add(change.key);
      }
      // Another channel's hook or refusal, or another hook than the one watched, needs no reading to be left out.
      if (c.filter.channel && change.channel !== undefined && change.channel !== c.filter.channel) continue;
      if (c.filter.hook && change.kind === "hook" && change.key !== c.filter.hook) continue;
      // A hook whose status is known (one just caught is pending) and is not the stream's needs no reading either.
      if (c.filter.status && change.status && change.status !== c.filter.status) continue;
      if (change.kind === "hook" && hooks >= latest) {
        skipped++;
        continue;
      }
      const r = await renderAt(i);
      if (!r || !passes(c.filter, r)) continue;
      if (change.kind === "hook") hooks++;
      picked.push(i);
    }
    return { picked: picked.reverse(), skipped };
  }

  const frames = createFrameWriter(log.epoch);
  /** Changes the last write carried: many mean load, and the next write waits longer. */
  let lastCount = 0;
  /** The last change a write read: a backlog of half the kept changes is written at once. */
  let pumpedTo = 0;

  async function pump(): Promise<void> {
    const from = Math.min(...[...clients].map((c) => c.cursor));
    if (!Number.isFinite(from)) return void (pumpedTo = log.head());
    const changes = log.since(from) ?? [];
    // Whole hooks (body, payload, events) are read only when a stream wants them.
    const full = [...clients].some((c) => c.filter.fields !== "summary");
    // A channel changed several times since the last wake-up is sent once, as it is now (its
    // event carries its state when read, so the earlier ones would repeat the last).
    const lastOfChannel = new Map<string, number>();
    for (const change of changes) if (change.kind === "channel") lastOfChannel.set(change.key, change.seq);
    const superseded = (change: Change) => change.kind === "channel" && lastOfChannel.get(change.key) !== change.seq;
    // Each change is rendered once, when a stream first needs it: streams that take only the latest
    // hooks of a write (`latest`) or one hook (`hook`) leave the others unread.
    const rendered: (Rendered | null)[] = new Array(changes.length).fill(null);
    const renderAt = async (i: number): Promise<Rendered> => {
      if (rendered[i] === null) {
        const r = render(changes[i]!, full);
        rendered[i] = r instanceof Promise ? await r : r;
      }
      return rendered[i]!;
    };
    const last = changes.at(-1)?.seq;
    lastCount = changes.length;
    pumpedTo = Math.max(pumpedTo, last ?? from);
    // Each change is rendered once, and what a client gets from this wake-up is encoded once per
    // filter and starting point, in pieces of at most `piece` bytes: clients that see the same
    // events (all unfiltered dashboards, say) share the buffers, so a stream costs writes, not
    // encodings. Between pieces a burst (a replay, large bodies) lets the sockets drain before a
    // client counts as slow.
    const piece = Math.max(1024, Math.min(64 * 1024, maxUnread / 4));
    const planned = new Map<string, Piece[]>();
    const plans: [Client, Piece[]][] = [];
    for (const c of clients) {
      if (last === undefined || c.cursor >= last) continue;
      // A stream that resumed (Last-Event-ID) from before what this write read, while it was made:
      // the next write starts from its position.
      if (c.cursor < from) {
        again = true;
        continue;
      }
      // A stream that wants whole hooks and joined (resumed) while this write was made without them
      // is served by the next one.
      if (c.filter.fields !== "summary" && !full) {
        again = true;
        continue;
      }
      const key = `${c.cursor}|${c.filter.channel ?? ""}|${c.filter.status ?? ""}|${c.filter.fields ?? ""}|${c.filter.latest ?? ""}|${c.filter.hook ?? ""}|${c.deflate ? "deflate" : ""}`;
      let pieces = planned.get(key);
      if (!pieces) {
        pieces = [];
        // A deflated piece is a tenth of its text or less (a third for base64 bodies): it may hold
        // more before the sockets drain, in fewer writes.
        const limit = c.deflate ? piece * 16 : piece;
        const { picked, skipped } = await pick(c, changes, renderAt, superseded);
        if (skipped) frames.frame(undefined, "skipped", JSON.stringify({ hooks: skipped }));
        for (const i of picked) {
          const seq = changes[i]!.seq;
          const r = rendered[i]!;
          frames.frame(seq, r.event, (c.filter.fields === "summary" && r.summary ? r.summary : r.data ?? r.summary) ?? "");
          if (frames.size() >= limit) pieces.push(encode(frames.take(), !!c.deflate));
        }
        if (frames.size() > 0) pieces.push(encode(frames.take(), !!c.deflate));
        planned.set(key, pieces);
      }
      plans.push([c, pieces]);
    }
    // Positions move only once every plan is made: a render that throws (a database error) loses
    // no client its changes, the next write makes them again.
    for (const [c] of plans) c.cursor = last!;
    for (let i = 0; plans.some(([, pieces]) => i < pieces.length); i++) {
      for (const [c, pieces] of plans) if (i < pieces.length) send(c, pieces[i]!);
      if (plans.some(([c]) => !c.dropped && (c.controller.desiredSize ?? 0) < maxUnread / 2)) await new Promise((r) => setImmediate(r));
    }
    // A client whose cursor fell out of the kept changes starts over.
    for (const c of clients) if (log.since(c.cursor) === undefined) reset(c);
  }

  // Streams are written at most once per GATHER_MS (GATHER_BUSY_MS under load): under a burst each
  // client gets one write per interval holding every change since the last, instead of one per
  // turn of the event loop. Changes recorded while a write is under way wait for the next.
  let lastPump = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  function wake(): void {
    if (running) {
      again = true;
      return;
    }
    // Before the kept changes run past the streams (they would all get `reset`), write at once.
    const backlog = log.head() - pumpedTo >= log.kept / 2;
    if (timer && !backlog) return;
    if (timer) (clearTimeout(timer), (timer = undefined));
    const wait = backlog ? 0 : lastPump + (lastCount >= BUSY_CHANGES ? GATHER_BUSY_MS : GATHER_MS) - performance.now();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        wake();
      }, wait);
      return;
    }
    lastPump = performance.now();
    running = pump().catch(() => void (again = true)).finally(() => {
      running = undefined;
      if (again) (again = false), wake();
    });
  }

  function reset(c: Client): void {
    c.cursor = log.head();
    send(c, `id: ${log.idOf(c.cursor)}\nevent: reset\ndata: {}\n\n`);
  }

  log.listen(wake);
  const heartbeat = setInterval(() => {
    for (const c of clients) send(c, ": heartbeat\n\n");
  }, deps.heartbeatMs ?? HEARTBEAT_MS);
  heartbeat.unref?.();

  return {
    /**
     * A stream of `hook` and `channel` events passing the filter. With a Last-Event-ID of this
     * process still kept, it first sends every change after it; with one that is not (too old,
     * from before a restart), an event `reset` says to read the lists again.
     */
    open(filter: StreamFilter, lastEventId: string | null, admitted?: () => boolean, deflate = false): ReadableStream<Uint8Array> {
      let client: Client;
      return new ReadableStream<Uint8Array>(
        {
          start(controller) {
            client = { filter, cursor: log.head(), controller, dropped: false, admitted, checkedAt: performance.now() };
            if (deflate) {
              client.deflate = { adler: 1 };
              controller.enqueue(DEFLATE_HEADER);
            }
            if (closed) return drop(client);
            clients.add(client);
            send(client, "retry: 2000\n: connected\n\n");
            const resumeFrom = lastEventId === null ? undefined : log.parseId(lastEventId);
            if (lastEventId !== null && (resumeFrom === undefined || log.since(resumeFrom) === undefined)) reset(client);
            else if (resumeFrom !== undefined) {
              client.cursor = resumeFrom;
              wake();
            }
          },
          cancel() {
            client.dropped = true;
            clients.delete(client);
          },
        },
        { highWaterMark: maxUnread, size: (chunk) => chunk?.byteLength ?? 0 },
      );
    },
    count: () => clients.size,
    /**
     * Whether an open stream wants the summary of every hook it passes (`fields=summary` without
     * `latest` or `hook`): only then is a caught hook's summary worth keeping with its change.
     * Dashboards take the newest few or one hook, read back when sent.
     */
    wantsEverySummary(): boolean {
      for (const c of clients) if (c.filter.fields === "summary" && c.filter.latest === undefined && c.filter.hook === undefined) return true;
      return false;
    },
    /** Ends every stream cleanly and refuses new ones (shutdown). */
    close(): void {
      closed = true;
      clearInterval(heartbeat);
      if (timer) clearTimeout(timer);
      for (const c of [...clients]) drop(c);
    },
  };
}

export type Streams = ReturnType<typeof createStreams>;
