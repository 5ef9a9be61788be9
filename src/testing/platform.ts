/**
 * Where the Mailroom executable is, for the npm package's launcher (`mailroom`) and the test
 * helper: $MAILROOM_BIN, else the executable of the platform package npm installed beside the main
 * package (one optional dependency per platform: linux x64/arm64 with glibc or musl, darwin
 * x64/arm64, windows x64). Plain Node (18 and later): no dependency.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The main package's name on npm; each platform package is `${MAIN_PACKAGE}-${target}`. */
export const MAIN_PACKAGE = "mailroom-webhooks";

/** The targets built, as Bun names them after `bun-` (bun build --compile --target=bun-linux-x64). */
export const TARGETS = ["linux-x64", "linux-arm64", "linux-x64-musl", "linux-arm64-musl", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type Target = (typeof TARGETS)[number];

/** The dynamic loaders of glibc and musl, by processor. */
const LOADERS: Record<string, { glibc: string; musl: string }> = {
  x64: { glibc: "/lib64/ld-linux-x86-64.so.2", musl: "/lib/ld-musl-x86_64.so.1" },
  arm64: { glibc: "/lib/ld-linux-aarch64.so.1", musl: "/lib/ld-musl-aarch64.so.1" },
};

/**
 * Whether this Linux runs on musl (Alpine) rather than glibc: by which loader is there (glibc's wins,
 * since Debian's musl package adds musl's beside it), else by Node's report, which names glibc's
 * version when there is one (about 100 ms, so only when the files say nothing).
 */
function isMusl(arch: string = process.arch): boolean {
  const loaders = LOADERS[arch];
  if (loaders && existsSync(loaders.glibc)) return false;
  if (loaders && existsSync(loaders.musl)) return true;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime === undefined;
}

/** This machine's target, or undefined when no package is built for it. */
export function currentTarget(platform: string = process.platform, arch: string = process.arch, musl?: () => boolean): Target | undefined {
  const os = platform === "win32" ? "windows" : platform;
  const libc = os === "linux" && (musl ?? (() => isMusl(arch)))() ? "-musl" : "";
  const target = `${os}-${arch}${libc}`;
  return (TARGETS as readonly string[]).includes(target) ? (target as Target) : undefined;
}

export const executableName = (target: Target) => (target.startsWith("windows") ? "mailroom.exe" : "mailroom");

/** Thrown when no executable is found; its message says why and what to do. */
export class ExecutableNotFound extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExecutableNotFound";
  }
}

/**
 * Resolves a module id from this file, in whichever form it was built: a CommonJS bundle has its
 * own `require`; an ES module bundle keeps import.meta.url (a bundler writes the build machine's
 * path for __filename, so neither may be read as a constant).
 */
function resolveHere(id: string): string {
  if (typeof require === "function" && typeof require.resolve === "function") return require.resolve(id);
  return createRequire(import.meta.url).resolve(id);
}

/** The path of the executable: $MAILROOM_BIN, else the platform package's. Throws ExecutableNotFound. */
export function findExecutable(env: Record<string, string | undefined> = process.env): string {
  if (env.MAILROOM_BIN) {
    if (!existsSync(env.MAILROOM_BIN)) throw new ExecutableNotFound(`MAILROOM_BIN is ${env.MAILROOM_BIN}, which does not exist`);
    return env.MAILROOM_BIN;
  }
  const target = currentTarget();
  if (!target) {
    throw new ExecutableNotFound(
      `no Mailroom executable is built for ${process.platform} ${process.arch}; build one from source and set MAILROOM_BIN to its path`,
    );
  }
  const pkg = `${MAIN_PACKAGE}-${target}`;
  let dir: string;
  try {
    dir = dirname(resolveHere(`${pkg}/package.json`));
  } catch {
    throw new ExecutableNotFound(
      `the package ${pkg}, which holds Mailroom's executable for this machine, is not installed (installed without optional dependencies, --omit=optional?); install it (npm install ${pkg}) or set MAILROOM_BIN to a mailroom executable`,
    );
  }
  const bin = join(dir, "bin", executableName(target));
  if (!existsSync(bin)) throw new ExecutableNotFound(`${pkg} is installed but has no ${bin}; install it again, or set MAILROOM_BIN`);
  return bin;
}
