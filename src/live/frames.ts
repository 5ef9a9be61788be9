const encoder = new TextEncoder();
const bytesOf = (s: string) => encoder.encode(s);

/**
 * Server-Sent Events written as UTF-8 into one growing buffer, for the pieces the streams send.
 *
 * Each frame is encoded as it is written: concatenating a write's frames into one string and
 * encoding that cost several times more (a rope of thousands of parts, flattened cold).
 */
export function createFrameWriter(epoch: string) {
  let buf = new Uint8Array(64 * 1024);
  let pos = 0;
  const idPrefix = bytesOf(`id: ${epoch}-`);

  function room(n: number): void {
    if (pos + n <= buf.length) return;
    const bigger = new Uint8Array(Math.max(buf.length * 2, pos + n));
    bigger.set(buf.subarray(0, pos));
    buf = bigger;
  }
  /** Only for text known to be ASCII (ids, channel names, timestamps, numbers). */
  function ascii(s: string): void {
    room(s.length);
    for (let i = 0; i < s.length; i++) buf[pos++] = s.charCodeAt(i);
  }
  function bytes(b: Uint8Array): void {
    room(b.length);
    buf.set(b, pos);
    pos += b.length;
  }
  function text(s: string): void {
    // A large text (a whole hook with a big body) is encoded at its exact size, not reserved at three bytes a character.
    if (s.length > 64 * 1024) return bytes(encoder.encode(s));
    room(s.length * 3);
    pos += encoder.encodeInto(s, buf.subarray(pos)).written;
  }

  return {
    /** `id: <epoch>-<seq>` (none without a seq), `event: <event>`, `data: <data>` and a blank line. */
    frame(seq: number | undefined, event: string, data: string): void {
      if (seq !== undefined) {
        bytes(idPrefix);
        ascii(String(seq));
        bytes(NEWLINE);
      }
      text(`event: ${event}\ndata: `);
      text(data);
      bytes(END);
    },
    size: () => pos,
    /** What was written since the last take, as its own bytes; the buffer is reused. */
    take(): Uint8Array {
      const out = buf.slice(0, pos);
      pos = 0;
      // Grown for a large event: let that memory go rather than keep it for the life of the server.
      if (buf.length > 4 * 1024 * 1024) buf = new Uint8Array(64 * 1024);
      return out;
    },
  };
}

export type FrameWriter = ReturnType<typeof createFrameWriter>;

const END = bytesOf("\n\n");
const NEWLINE = bytesOf("\n");
