/**
 * `npm run release`: everything a release publishes, in dist/release/ (and nothing anywhere else in
 * the repository; dist/stage/ holds what is packed):
 *
 * - per target, `mailroom-<version>-<target>.tar.gz`: the executable, LICENSE and README.md;
 * - the npm tarballs: the main package (the `mailroom` launcher and the test helper) and one
 *   package per target holding its executable (npm-packages.ts);
 * - SHA256SUMS over all of them (`sha256sum -c SHA256SUMS` checks them).
 *
 * The version is package.json's. Each executable is built by `bun build --compile
 * --target=bun-<target>` (Bun fetches the runtime of another target from the npm registry once).
 *
 *   bun run scripts/release.ts [--targets linux-x64,darwin-arm64 | --targets host]
 */
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { currentTarget, executableName, TARGETS, type Target } from "../src/testing/platform";
import { mainPackage, platformPackage, ROOT, run, runAsync, VERSION } from "./npm-packages";

const OUT = join(ROOT, "dist/release");
const STAGE = join(ROOT, "dist/stage");

const { values: args } = parseArgs({ options: { targets: { type: "string", default: TARGETS.join(",") } } });
const targets = (args.targets === "host" ? [currentTarget()] : args.targets!.split(",")) as Target[];
for (const t of targets) if (!TARGETS.includes(t)) throw new Error(`--targets: not a target: ${t} (targets: ${TARGETS.join(", ")})`);

/** Runs `fn`, printing how long it took. */
async function step<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  const value = await fn();
  console.log(`release: ${label} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return value;
}

/** The executable for `target`, built into dist/stage/bin/<target>/. */
function buildExecutable(target: Target): string {
  const out = join(STAGE, "bin", target, executableName(target));
  const entries = ["src/main.ts", "src/db/checkpoint-thread.ts", "src/hooks/search/thread.ts"];
  run([process.execPath, "build", ...entries, "--compile", "--bytecode", "--sourcemap", `--target=bun-${target}`, "--outfile", out]);
  chmodSync(out, 0o755);
  return out;
}

/** `mailroom-<version>-<target>.tar.gz` in dist/release: one folder with the executable, LICENSE and README.md. */
async function archive(target: Target, executable: string): Promise<void> {
  const name = `mailroom-${VERSION}-${target}`;
  const dir = join(STAGE, "archive", name);
  mkdirSync(dir, { recursive: true });
  cpSync(executable, join(dir, executableName(target)));
  for (const file of ["LICENSE", "README.md"]) cpSync(join(ROOT, file), join(dir, file));
  await runAsync(["tar", "-czf", join(OUT, `${name}.tar.gz`), "--owner=0", "--group=0", "-C", join(STAGE, "archive"), name]);
}

/** `npm pack` of a staged package folder into dist/release; the tarball's name. */
async function pack(dir: string): Promise<string> {
  return (await runAsync(["npm", "pack", "--silent", "--pack-destination", OUT], dir)).trim().split("\n").at(-1)!;
}

/** SHA256SUMS in the format `sha256sum -c` reads: `<hex>  <file name>`, one line per file. */
async function checksums(): Promise<void> {
  const names = readdirSync(OUT)
    .filter((n) => n !== "SHA256SUMS")
    .sort();
  const lines: string[] = [];
  for (const name of names) {
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(join(OUT, name)).stream()) hasher.update(chunk);
    lines.push(`${hasher.digest("hex")}  ${name}`);
  }
  await Bun.write(join(OUT, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

if (import.meta.main) {
  const t0 = performance.now();
  rmSync(OUT, { recursive: true, force: true });
  rmSync(STAGE, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  console.log(`release: mailroom ${VERSION}, targets ${targets.join(", ")}`);
  for (const target of targets) {
    const executable = await step(`${target}: executable`, () => buildExecutable(target));
    // Both compress the 100 MB executable: side by side.
    await Promise.all([
      step(`${target}: archive`, () => archive(target, executable)),
      step(`${target}: npm package`, () => pack(platformPackage(STAGE, target, executable))),
    ]);
  }
  await step("main npm package (launcher, test helper)", () => pack(mainPackage(STAGE)));
  await step("SHA256SUMS", checksums);
  console.log(`release: dist/release/ in ${((performance.now() - t0) / 1000).toFixed(1)} s:`);
  for (const name of readdirSync(OUT).sort()) console.log(`  ${name}  ${(Bun.file(join(OUT, name)).size / 1e6).toFixed(1)} MB`);
}
