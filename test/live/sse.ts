export type SseEvent = { id?: string; event: string; data: string };

/** Reads Server-Sent Events from a response; `next(pred)` resolves with the first event that passes. */
export function sseReader(res: Response) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const comments: string[] = [];
  let ended = false;

  async function read(): Promise<boolean> {
    const { done, value } = await reader.read();
    if (done) return ((ended = true), false);
    buffer += decoder.decode(value, { stream: true });
    return true;
  }

  function take(): SseEvent | undefined {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end < 0) return undefined;
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const ev: SseEvent = { event: "message", data: "" };
      let any = false;
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) comments.push(line.slice(1).trim());
        else if (line.startsWith("id: ")) ev.id = line.slice(4);
        else if (line.startsWith("event: ")) (ev.event = line.slice(7)), (any = true);
        else if (line.startsWith("data: ")) ev.data += line.slice(6);
      }
      if (any) return ev;
    }
  }

  return {
    comments,
    ended: () => ended,
    async next(pred: (e: SseEvent) => boolean = () => true): Promise<SseEvent> {
      for (;;) {
        for (let e = take(); e; e = take()) if (pred(e)) return e;
        if (!(await read())) throw new Error("stream ended");
      }
    },
    /** Reads until a comment passes. */
    async comment(pred: (c: string) => boolean): Promise<void> {
      for (;;) {
        take();
        if (comments.some(pred)) return;
        if (!(await read())) throw new Error("stream ended");
      }
    },
    /** Resolves once the server ends the stream. */
    async end(): Promise<void> {
      while (await read());
    },
    cancel: () => reader.cancel(),
  };
}
