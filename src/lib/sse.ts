/**
 * Server-Sent Events read from a response body, as the HTML standard parses them: `event`,
 * `data` (several lines joined), `id`; comments (heartbeats) and `retry` are skipped. Ends when
 * the body ends; throws when the connection breaks (or the signal aborts the fetch).
 *
 * @example for await (const e of readEvents(res.body!)) if (e.event === "hook") show(JSON.parse(e.data));
 */
export type ServerEvent = { event: string; data: string; id?: string };

export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).replace(/\r$/, "");
      buffer = buffer.slice(nl + 1);
      if (line === "") {
        if (data.length > 0 || event) yield { event: event || "message", data: data.join("\n"), id };
        event = "";
        data = [];
        id = undefined;
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id" && !value.includes("\0")) id = value;
    }
  }
}
