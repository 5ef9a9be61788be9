/**
 * Install benchmark: `npm install --offline` of the main package and this machine's platform package
 * from the release's tarballs (dist/release/, `npm run release -- --targets host` first) into a fresh
 * project, as many times as asked; prints each time and the median. The target is under 10 s.
 *
 *   bun run bench/install.ts [--rounds 5]
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { currentTarget } from "../src/testing/platform";
import { fmt, median, ROOT } from "./lib";

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "5" } } });
const rounds = Number(args.rounds);
const version = (await Bun.file(join(ROOT, "package.json")).json()).version;
const tarballs = [`mailroom-webhooks-${version}.tgz`, `mailroom-webhooks-${currentTarget()}-${version}.tgz`];
for (const t of tarballs)
  if (!(await Bun.file(join(ROOT, "dist/release", t)).exists())) throw new Error(`dist/release/${t} is missing: npm run release -- --targets host`);

const times: number[] = [];
for (let round = 0; round < rounds; round++) {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-bench-install-"));
  try {
    writeFileSync(join(dir, "package.json"), '{ "name": "fresh-project", "private": true }\n');
    for (const t of tarballs) cpSync(join(ROOT, "dist/release", t), join(dir, t));
    const t0 = performance.now();
    const proc = Bun.spawnSync(["npm", "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs.map((t) => `./${t}`)], { cwd: dir });
    if (proc.exitCode !== 0) throw new Error(`npm install failed:\n${proc.stderr.toString()}`);
    times.push(performance.now() - t0);
    console.log(`round ${round + 1}: ${fmt(times.at(-1)! / 1000, 1)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  `npm install --offline of ${tarballs.join(" and ")}: median ${fmt(median(times) / 1000, 1)} s (${fmt(Math.min(...times) / 1000, 1)}-${fmt(Math.max(...times) / 1000, 1)})`,
);
