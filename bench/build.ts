/**
 * `npm run bench:build`: what minifying the executable would save. Builds it as `npm run build` does
 * and once more with --minify, then prints each file's size and its time from spawn to "listening on"
 * (the median of N starts on an in-memory database, rounds alternating). The build does not minify:
 * --minify-identifiers changed what validation does (see docs/testing.md), and this measures what
 * that costs.
 *
 *   npm run bench:build -- [rounds=15]
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, start } from "./lib";

const rounds = Number(Bun.argv[2] ?? 15);
const dir = mkdtempSync(join(tmpdir(), "mailroom-bench-build-"));
const script: string = (await Bun.file(join(ROOT, "package.json")).json()).scripts.build;
const args = script.split(/\s+/).slice(1);
const variants = { "npm run build": [] as string[], "with --minify": ["--minify"] };
const bins: Record<string, string> = {};
for (const [name, extra] of Object.entries(variants)) {
  const out = join(dir, name.replace(/\W+/g, "-"));
  const res = Bun.spawnSync([process.execPath, ...args.map((a) => (a === "dist/mailroom" ? out : a)), ...extra], { cwd: ROOT, stderr: "pipe" });
  if (res.exitCode !== 0) throw new Error(res.stderr.toString());
  bins[name] = out;
}
const times: Record<string, number[]> = Object.fromEntries(Object.keys(bins).map((k) => [k, []]));
for (let i = 0; i < rounds; i++) {
  for (const [name, bin] of Object.entries(bins)) {
    const s = await start([bin, "serve", "--port", "0"], { cwd: dir, env: { MAILROOM_DB: ":memory:" } });
    times[name]!.push(s.startMs);
    await s.stop();
  }
}
for (const [name, bin] of Object.entries(bins)) {
  const sorted = times[name]!.sort((a, b) => a - b);
  const mb = (statSync(bin).size / 1e6).toFixed(2);
  console.log(
    `${name.padEnd(14)} ${mb} MB   start to listening: median ${sorted[sorted.length >> 1]!.toFixed(0)} ms, min ${sorted[0]!.toFixed(0)} ms (${rounds} starts)`,
  );
}
