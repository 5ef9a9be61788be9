/**
 * Server-Sent Events, as the HTML standard parses them: `event`, `data` (several lines joined),
 * `id`; comments (heartbeats) and `retry` are skipped. A block with neither `event` nor `data`
 * is no event.
 *
 * @example for await (const e of readEvents(res.body!)) if (e.event === "hook") show(JSON.parse(e.data));
 */
export type ServerEvent = { event: string; data: string; id?: string };

/**
 * A parser fed the stream's text as it arrives, in pieces of any size; each call returns the events
 * the piece completed. Comment lines go to `onComment` (without their colon), for a caller that
 * watches the heartbeats.
 */
export function eventParser(onComment?: (text: string) => void): (text: string) => ServerEvent[] {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  return (text) => {
    const out: ServerEvent[] = [];
    buffer += text;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).replace(/\r$/, "");
      buffer = buffer.slice(nl + 1);
      if (line === "") {
        if (data.length > 0 || event) out.push({ event: event || "message", data: data.join("\n"), id });
        event = "";
        data = [];
        id = undefined;
        continue;
      }
      if (line.startsWith(":")) {
        onComment?.(line.slice(1));
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id" && !value.includes("\0")) id = value;
    }
    return out;
  };
}

/** The events of a response body. Ends when the body ends; throws when the connection breaks (or the signal aborts the fetch). */
export async function* readEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  const parse = eventParser();
  for await (const chunk of body) yield* parse(decoder.decode(chunk, { stream: true }));
}
