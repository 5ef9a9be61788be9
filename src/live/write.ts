import type { Change, Rendered } from "./bus";
import { encodePiece as encode, type Piece } from "./deflate";
import type { FrameWriter } from "./frames";
import { payloadOf, planKey, select, supersededChannels, type StreamFilter } from "./select";

/** What a write needs of a stream: its position, filter and encoding. */
export type Reader = { cursor: number; filter: StreamFilter; deflate: boolean };

/**
 * The bytes each stream gets from one write of `changes` (those after the streams' positions).
 * Each change is rendered once, when a stream first needs it: streams that take only the latest
 * hooks (`latest`) or one hook (`hook`) leave the others unread, and whole hooks (body, payload,
 * events) are read only when `full`. What a stream gets is encoded once per filter and starting
 * point, in pieces of about `piece` bytes of text: streams that see the same events (all unfiltered
 * dashboards, say) share the buffers, so a stream costs writes, not encodings. Throws what
 * `render` throws; nothing is written then.
 */
export async function makeWrite<R extends Reader>(
  changes: readonly Change[],
  readers: readonly R[],
  opts: { render: (c: Change, full: boolean) => Rendered | Promise<Rendered>; full: boolean; frames: FrameWriter; piece: number },
): Promise<[R, Piece[]][]> {
  const { frames } = opts;
  const superseded = supersededChannels(changes);
  const rendered: (Rendered | null)[] = new Array(changes.length).fill(null);
  const renderAt = async (i: number): Promise<Rendered> => {
    if (rendered[i] === null) {
      const r = opts.render(changes[i]!, opts.full);
      rendered[i] = r instanceof Promise ? await r : r;
    }
    return rendered[i]!;
  };
  const planned = new Map<string, Piece[]>();
  const plans: [R, Piece[]][] = [];
  for (const reader of readers) {
    const key = planKey(reader.cursor, reader.filter, reader.deflate);
    let pieces = planned.get(key);
    if (!pieces) {
      pieces = [];
      // A deflated piece is a tenth of its text or less (a third for base64 bodies): it may hold
      // more before the sockets drain, in fewer writes.
      const limit = reader.deflate ? opts.piece * 16 : opts.piece;
      const run = select(changes, reader.cursor, reader.filter, superseded);
      let step = run.next();
      while (!step.done) step = run.next(await renderAt(step.value));
      const { picked, skipped } = step.value;
      if (skipped) frames.frame(undefined, "skipped", JSON.stringify({ hooks: skipped }));
      for (const i of picked) {
        const r = rendered[i]!;
        frames.frame(changes[i]!.seq, r.event, payloadOf(reader.filter, r));
        if (frames.size() >= limit) pieces.push(encode(frames.take(), reader.deflate));
      }
      if (frames.size() > 0) pieces.push(encode(frames.take(), reader.deflate));
      planned.set(key, pieces);
    }
    plans.push([reader, pieces]);
  }
  return plans;
}
