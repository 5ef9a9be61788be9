/**
 * Reads a request body up to `limit` bytes without buffering more than that: a declared
 * Content-Length over the limit is refused before reading, a chunked body is counted while it
 * streams. "aborted" when the client went away mid-body (nothing is stored then).
 */
export async function readBody(request: Request, limit: number): Promise<Uint8Array | "too_large" | "aborted"> {
  const declared = request.headers.get("content-length");
  try {
    if (declared !== null) {
      const length = Number(declared);
      if (length > limit) return "too_large";
      const bytes = await request.bytes();
      // Bun rejects the read when the sender goes away mid-body; a short body is refused all the same.
      return bytes.byteLength === length ? bytes : "aborted";
    }
    if (!request.body) return new Uint8Array(0);
    const reader = request.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        return "too_large";
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks);
  } catch {
    return "aborted";
  }
}

/**
 * True for a GET that came with a body: Bun reads and drops a GET's body before the app sees
 * the request, so it could only be stored empty. A declared length of 0 is no body.
 */
export function bodyDropped(request: Request): boolean {
  if (request.method !== "GET") return false;
  const declared = request.headers.get("content-length");
  return request.headers.has("transfer-encoding") || (declared !== null && Number(declared) !== 0);
}
