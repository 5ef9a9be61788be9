import { ApiError, request } from "../api";

/**
 * POSTs `body` to /ui/api and saves what it answers as a file named `name`: an export's JSON lines
 * (application/x-ndjson), which are never shown, only saved. The answer is read as it comes, as
 * bytes (its lines counted by their newlines), kept as the parts of a Blob of type
 * application/octet-stream, then saved through a link with `download`. Answers the lines saved.
 * Throws ApiError as api() does, and when the answer is not JSON lines (a proxy's sign-in page).
 */
export async function download(path: string, body: unknown, name: string): Promise<number> {
  const res = await request("POST", path, body);
  if (!(res.headers.get("content-type") ?? "").startsWith("application/x-ndjson")) {
    await res.body?.cancel();
    throw new ApiError(res.status, `the export was answered with ${res.headers.get("content-type") ?? "no content type"}, not JSON lines`);
  }
  const parts: Uint8Array[] = [];
  let lines = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) if (byte === 0x0a) lines++;
    parts.push(value);
  }
  const href = URL.createObjectURL(new Blob(parts as BlobPart[], { type: "application/octet-stream" }));
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.click();
  // Kept a minute: a browser that asks where to save reads it once that is answered.
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
  return lines;
}
