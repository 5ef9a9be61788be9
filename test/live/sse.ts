import { eventParser, type ServerEvent } from "../../src/lib/sse";

export type SseEvent = ServerEvent;

/** Reads Server-Sent Events from a response; `next(pred)` resolves with the first event that passes. */
export function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const comments: string[] = [];
  const parse = eventParser((c) => comments.push(c.trim()));
  const events: SseEvent[] = [];
  let ended = false;

  async function read(): Promise<boolean> {
    const { done, value } = await reader.read();
    if (done) return ((ended = true), false);
    events.push(...parse(decoder.decode(value, { stream: true })));
    return true;
  }

  return {
    comments,
    ended: () => ended,
    async next(pred: (e: SseEvent) => boolean = () => true): Promise<SseEvent> {
      for (;;) {
        for (let e = events.shift(); e; e = events.shift()) if (pred(e)) return e;
        if (!(await read())) throw new Error("stream ended");
      }
    },
    /** Reads until a comment passes. */
    async comment(pred: (c: string) => boolean): Promise<void> {
      while (!comments.some(pred)) if (!(await read())) throw new Error("stream ended");
    },
    /** Resolves once the server ends the stream. */
    async end(): Promise<void> {
      while (await read());
    },
    cancel: () => reader.cancel(),
  };
}
