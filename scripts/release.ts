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
 *   bun run scripts/release.ts [--targets linux-x64,darwin-arm64 | --targets host] [--out DIR]
 *
 * What is packed is staged in dist/stage/ (beside --out), each target's part removed once it is
 * packed and the whole folder at the end, whether the release succeeded, failed or was interrupted:
 * every target staged and kept came to 3 GB.
 */
import { chmodSync, cpSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { currentTarget, executableName, TARGETS, type Target } from "../src/testing/platform";
import { mainPackage, platformPackage, ROOT, run, runAsync, running, VERSION } from "./npm-packages";

/**
 * The targets `--targets` names: `host` (this machine's), or a comma-separated list. Throws when
 * one is not a target, or `host` is a machine no target fits.
 */
export function selectTargets(value: string, hostTarget: () => Target | undefined = currentTarget): Target[] {
  if (value === "host") {
    const host = hostTarget();
    if (!host) throw new Error(`--targets host: no target fits ${process.platform} ${process.arch} (targets: ${TARGETS.join(", ")})`);
    return [host];
  }
  const names = [...new Set(value.split(",").map((t) => t.trim()))];
  for (const t of names)
    if (!(TARGETS as readonly string[]).includes(t)) throw new Error(`--targets: not a target: ${t} (targets: ${TARGETS.join(", ")}, or host)`);
  return names as Target[];
}

/** Runs `fn`, printing how long it took. */
async function step<T>(label: string, fn: () => T | Promise<T>): Promise<T> {
  const t0 = performance.now();
  const value = await fn();
  console.log(`release: ${label} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return value;
}

/** The executable for `target`, built into stage/bin/<target>/. */
function buildExecutable(stage: string, target: Target): string {
  const file = join(stage, "bin", target, executableName(target));
  const entries = ["src/main.ts", "src/db/sqlite/checkpoint-thread.ts", "src/db/sqlite/search-thread.ts", "src/contracts/thread.ts"];
  run([process.execPath, "build", ...entries, "--compile", "--bytecode", "--sourcemap", `--target=bun-${target}`, "--outfile", file]);
  chmodSync(file, 0o755);
  return file;
}

/** `mailroom-<version>-<target>.tar.gz` in `out`: one folder with the executable, LICENSE and README.md. */
async function archive(out: string, stage: string, target: Target, executable: string): Promise<void> {
  const name = `mailroom-${VERSION}-${target}`;
  const dir = join(stage, "archive", name);
  mkdirSync(dir, { recursive: true });
  cpSync(executable, join(dir, executableName(target)));
  for (const file of ["LICENSE", "README.md"]) cpSync(join(ROOT, file), join(dir, file));
  await runAsync(["tar", "-czf", join(out, `${name}.tar.gz`), "--owner=0", "--group=0", "-C", join(stage, "archive"), name]);
}

/** `npm pack` of a staged package folder into `out`; the tarball's name. */
async function pack(out: string, dir: string): Promise<string> {
  return (await runAsync(["npm", "pack", "--silent", "--pack-destination", out], dir)).trim().split("\n").at(-1)!;
}

/** SHA256SUMS in the format `sha256sum -c` reads: `<hex>  <file name>`, one line per file. */
async function checksums(out: string): Promise<void> {
  const names = readdirSync(out)
    .filter((n) => n !== "SHA256SUMS")
    .sort();
  const lines: string[] = [];
  for (const name of names) {
    const hasher = new Bun.CryptoHasher("sha256");
    for await (const chunk of Bun.file(join(out, name)).stream()) hasher.update(chunk);
    lines.push(`${hasher.digest("hex")}  ${name}`);
  }
  await Bun.write(join(out, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

/** The whole release into `out`, staged in `stage`, which is gone when this returns or throws. */
async function release(targets: Target[], out: string, stage: string): Promise<void> {
  const t0 = performance.now();
  rmSync(out, { recursive: true, force: true });
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  console.log(`release: mailroom ${VERSION}, targets ${targets.join(", ")}`);
  try {
    for (const target of targets) {
      const executable = await step(`${target}: executable`, () => buildExecutable(stage, target));
      // Both compress the 100 MB executable: side by side.
      await Promise.all([
        step(`${target}: archive`, () => archive(out, stage, target, executable)),
        step(`${target}: npm package`, () => pack(out, platformPackage(stage, target, executable))),
      ]);
      // Three copies of the executable were staged for this target: packed, they go.
      rmSync(stage, { recursive: true, force: true });
    }
    await step("main npm package (launcher, test helper)", () => pack(out, mainPackage(stage)));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
  await step("SHA256SUMS", () => checksums(out));
  console.log(`release: ${out} in ${((performance.now() - t0) / 1000).toFixed(1)} s:`);
  for (const name of readdirSync(out).sort()) console.log(`  ${name}  ${(Bun.file(join(out, name)).size / 1e6).toFixed(1)} MB`);
}

if (import.meta.main) {
  const { values: args } = parseArgs({
    options: { targets: { type: "string", default: TARGETS.join(",") }, out: { type: "string", default: join(ROOT, "dist/release") } },
  });
  const out = resolve(args.out!);
  const stage = join(dirname(out), "stage");
  // An interrupted release leaves no stage behind either, nor a tar or npm pack still writing.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      for (const proc of running) proc.kill("SIGKILL");
      rmSync(stage, { recursive: true, force: true });
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
  await release(selectTargets(args.targets!), out, stage);
}
