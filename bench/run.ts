/** `npm run bench`: the ingest benchmark, then the reads benchmark, each in its own process. */
import { join } from "node:path";

for (const [script, extra] of [
  ["ingest.ts", []],
  ["reads.ts", ["--no-build"]],
] as const) {
  console.log(`\n=== bench/${script}\n`);
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, script), ...extra], { stdout: "inherit", stderr: "inherit" });
  if ((await proc.exited) !== 0) process.exit(1);
}
