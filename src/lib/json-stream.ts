/** Bytes of JSON gathered before a chunk is handed to the reader. */
const CHUNK = 256 * 1024;

/**
 * A JSON array answered as it is read: item `i` is made and serialised only when the reader asks
 * for more, a chunk of about CHUNK bytes at a time, so a page of large items (hooks of 10 MB) is
 * never whole in memory, and the one thread serves other requests between chunks. An item that
 * comes back undefined is left out. Anything that can be refused must be checked before: once
 * the first chunk is sent, the status is 200.
 *
 *   jsonArrayResponse(ids.length, (i) => find(ids[i]!))
 */
export function jsonArrayResponse<T>(
  count: number,
  item: (i: number) => Promise<T | undefined> | T | undefined,
  /** How an item becomes JSON (an item that is already JSON text: `(s) => s`). */
  serialise: (value: T) => string = JSON.stringify,
): Response {
  const encoder = new TextEncoder();
  let next = 0;
  let text = "[";
  let empty = true;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (next < count && text.length < CHUNK) {
        const value = await item(next++);
        if (value === undefined) continue;
        text += (empty ? "" : ",") + serialise(value);
        empty = false;
      }
      if (next >= count) text += "]";
      controller.enqueue(encoder.encode(text));
      text = "";
      if (next >= count) controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/json;charset=utf-8" } });
}
