/** How much of an answer (response body, program output, returned value) an attempt keeps. */
export const EXCERPT_MAX = 2048;
/** How much of an error message an attempt keeps. */
export const ERROR_MAX = 1024;

/** Cuts text to `max` characters, saying that it did. */
export function clip(text: string, max = EXCERPT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/**
 * Reads a stream to its end, or until `stop` is aborted, but keeps only its first `max` bytes, as
 * text. Draining matters: a child process blocks when nobody reads its full pipe. Never throws.
 */
export async function readBounded(stream: ReadableStream<Uint8Array> | null | undefined, max = EXCERPT_MAX, stop?: AbortSignal): Promise<string> {
  if (!stream) return "";
  const reader = stream.getReader();
  const cancel = () => void reader.cancel().catch(() => {});
  stop?.addEventListener("abort", cancel, { once: true });
  const kept: Uint8Array[] = [];
  let size = 0;
  let total = 0;
  try {
    while (!stop?.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (size < max) {
        const part = value.subarray(0, max - size);
        kept.push(part);
        size += part.byteLength;
      }
    }
  } catch {
    // A stream cut short (timeout, killed program) still yields what arrived.
  } finally {
    stop?.removeEventListener("abort", cancel);
    if (stop?.aborted) cancel();
  }
  const text = new TextDecoder().decode(Buffer.concat(kept));
  return total > size ? `${text}… (${total - size} more bytes)` : text;
}

/**
 * Reads at most `max` bytes of a response body, then stops reading it (a forward target may
 * answer with a large page; only the excerpt is kept).
 */
export async function readResponseExcerpt(res: Response, max = EXCERPT_MAX): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const kept: Uint8Array[] = [];
  let size = 0;
  let more = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size >= max) {
        more = true;
        break;
      }
      const part = value.subarray(0, max - size);
      kept.push(part);
      size += part.byteLength;
      if (part.byteLength < value.byteLength) {
        more = true;
        break;
      }
    }
  } catch {
    // Keep what arrived.
  } finally {
    reader.cancel().catch(() => {});
  }
  const text = new TextDecoder().decode(Buffer.concat(kept));
  return more ? `${text}… (cut)` : text;
}
