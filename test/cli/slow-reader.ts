/**
 * A slow reader of a pipe, run as a process of its own: `bun slow-reader.ts FILE` reads its standard
 * input in 16 KiB chunks with a pause after each (a 1 MiB output takes it about a third of a second,
 * long after a writer that does not wait for its reader has exited) and saves what it read to FILE.
 */
import { readSync, writeFileSync } from "node:fs";

const chunks: Uint8Array[] = [];
for (;;) {
  const buffer = new Uint8Array(16 * 1024);
  const n = readSync(0, buffer);
  if (n === 0) break;
  chunks.push(buffer.subarray(0, n));
  Bun.sleepSync(5);
}
writeFileSync(process.argv[2]!, Buffer.concat(chunks));
