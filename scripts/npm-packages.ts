/**
 * The npm packages of a release, staged as folders for `npm pack` (scripts/release.ts):
 *
 * - `mailroom-webhooks`: the `mailroom` command (a small Node launcher, src/npm/launcher.ts) and the
 *   test helper (`mailroom-webhooks/testing`: ES module, CommonJS and types; smol-toml bundled in,
 *   so no runtime dependency), with one optional dependency per platform;
 * - `mailroom-webhooks-<target>`: that platform's executable, and `os`, `cpu` (and on Linux
 *   `libc`) so that npm installs only the one that fits the machine.
 */
import { chmodSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executableName, MAIN_PACKAGE, TARGETS, type Target } from "../src/testing/platform";

export const ROOT = join(import.meta.dir, "..");
/** The one place the version comes from. */
export const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const REPOSITORY = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).repository;

/** Runs argv in `cwd`; its stdout. Throws with its stderr when it fails. */
export function run(argv: string[], cwd = ROOT): string {
  const proc = Bun.spawnSync(argv, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  if (proc.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (${proc.exitCode}):\n${proc.stderr.toString()}${proc.stdout.toString()}`);
  return proc.stdout.toString();
}

/** The processes of runAsync still running: an interrupted release stops them (release.ts). */
export const running = new Set<Bun.Subprocess>();

/** As run(), without blocking: for steps that may run beside each other. */
export async function runAsync(argv: string[], cwd = ROOT): Promise<string> {
  const proc = Bun.spawn(argv, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } });
  running.add(proc);
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  running.delete(proc);
  if (code !== 0) throw new Error(`${argv.join(" ")} failed (${code}):\n${err}${out}`);
  return out;
}

const common = { version: VERSION, license: "MIT", ...(REPOSITORY ? { repository: REPOSITORY } : {}) };

/** npm's names for a target's operating system, processor and C library. */
function platformFields(target: Target): Record<string, string[]> {
  const [os, cpu, libc] = target.split("-") as [string, string, string | undefined];
  return {
    os: [os === "windows" ? "win32" : os],
    cpu: [cpu],
    ...(os === "linux" ? { libc: [libc === "musl" ? "musl" : "glibc"] } : {}),
  };
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Stages `mailroom-webhooks-<target>` with its executable under bin/; the folder. */
export function platformPackage(stage: string, target: Target, executable: string): string {
  const name = `${MAIN_PACKAGE}-${target}`;
  const dir = join(stage, "npm", name);
  mkdirSync(join(dir, "bin"), { recursive: true });
  const bin = join(dir, "bin", executableName(target));
  cpSync(executable, bin);
  chmodSync(bin, 0o755);
  cpSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"));
  writeFileSync(
    join(dir, "README.md"),
    `# ${name}\n\nThe Mailroom executable for ${target}. Install [${MAIN_PACKAGE}](https://www.npmjs.com/package/${MAIN_PACKAGE}) instead: it installs this package on ${target} machines and runs the executable as \`mailroom\`.\n`,
  );
  writeJson(join(dir, "package.json"), {
    name,
    ...common,
    description: `The Mailroom executable for ${target} (installed by ${MAIN_PACKAGE})`,
    ...platformFields(target),
    files: ["bin/", "README.md", "LICENSE"],
    preferUnplugged: true,
  });
  return dir;
}

/** Stages `mailroom-webhooks`: the launcher, the test helper in both module formats, its types; the folder. */
export function mainPackage(stage: string): string {
  const dir = join(stage, "npm", MAIN_PACKAGE);
  mkdirSync(join(dir, "bin"), { recursive: true });
  const bun = process.execPath;
  const launcher = join(dir, "bin", "mailroom.js");
  run([bun, "build", "src/npm/launcher.ts", "--target", "node", "--format", "cjs", "--outfile", launcher]);
  writeFileSync(launcher, `#!/usr/bin/env node\n${readFileSync(launcher, "utf8")}`);
  chmodSync(launcher, 0o755);
  for (const [format, file] of [
    ["esm", "index.mjs"],
    ["cjs", "index.cjs"],
  ]) {
    run([
      bun,
      "build",
      "src/testing/index.ts",
      "--target",
      "node",
      "--format",
      format!,
      "--define",
      "MAILROOM_BUNDLED=true",
      "--outfile",
      join(dir, "testing", file!),
    ]);
  }
  run([join(ROOT, "node_modules/.bin/tsc"), "-p", "src/testing", "--outDir", join(dir, "testing/types")]);
  for (const file of ["LICENSE", "README.md"]) cpSync(join(ROOT, file), join(dir, file));
  const types = "./testing/types/testing/index.d.ts";
  writeJson(join(dir, "package.json"), {
    name: MAIN_PACKAGE,
    ...common,
    description: "Catch, keep and handle webhooks; serve a faithful translation-ordering API. One executable, and a test helper.",
    keywords: ["webhooks", "webhook", "testing", "mock", "inspector", "relay"],
    bin: { mailroom: "bin/mailroom.js" },
    exports: {
      "./testing": { import: { types, default: "./testing/index.mjs" }, require: { types, default: "./testing/index.cjs" } },
      "./package.json": "./package.json",
    },
    engines: { node: ">=18" },
    files: ["bin/", "testing/", "README.md", "LICENSE"],
    optionalDependencies: Object.fromEntries(TARGETS.map((t) => [`${MAIN_PACKAGE}-${t}`, VERSION])),
  });
  return dir;
}
