/**
 * `npm run bench:testing-start`: how long `startMailroom()` of mailroom/testing takes, from the call
 * to an instance whose server answers, with the built executable (as a user's suite runs it), and
 * its stop. Prints each of N rounds and the median.
 *
 *   npm run bench:testing-start -- [rounds=10]
 */
import { join } from "node:path";
import { ROOT, buildBinary } from "./lib";

const rounds = Number(Bun.argv[2] ?? 10);
buildBinary();
process.env.MAILROOM_BIN = join(ROOT, "dist/mailroom");
const { startMailroom } = await import("../src/testing");
const starts: number[] = [];
const stops: number[] = [];
for (let i = 0; i < rounds; i++) {
  const t0 = performance.now();
  const mr = await startMailroom();
  starts.push(performance.now() - t0);
  const t1 = performance.now();
  await mr.stop();
  stops.push(performance.now() - t1);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`startMailroom(): ${starts.map((t) => t.toFixed(0)).join(", ")} ms; median ${median(starts).toFixed(0)} ms`);
console.log(`stop():          ${stops.map((t) => t.toFixed(0)).join(", ")} ms; median ${median(stops).toFixed(0)} ms`);
