import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");
let built: Promise<string> | undefined;
const made: string[] = [];

/** Removes every folder tempDir() made; call it from afterAll. The built executable stays (see buildBinary). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary folder, removed by removeTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * The single executable, built once per test process with the command of `npm run build` (about
 * 3 s) and removed when the process exits; MAILROOM_TEST_BINARY names one built already (`npm test`
 * builds it once for all its runs).
 */
export function buildBinary(): Promise<string> {
  built ??= process.env.MAILROOM_TEST_BINARY ? Promise.resolve(process.env.MAILROOM_TEST_BINARY) : compile();
  return built;
}

/** Builds the executable into a fresh folder, removed when this process exits; resolves to its path. */
export async function compile(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-bin-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const out = join(dir, "mailroom");
  const script: string = (await Bun.file(join(ROOT, "package.json")).json()).scripts.build;
  const args = script
    .split(/\s+/)
    .slice(1)
    .map((a) => (a === "dist/mailroom" ? out : a));
  const proc = Bun.spawn([process.execPath, ...args], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  if ((await proc.exited) !== 0) throw new Error(`build failed: ${await new Response(proc.stderr).text()}`);
  return out;
}

export type Running = { url: string; proc: Bun.Subprocess<"ignore", "pipe", "pipe">; output: () => string; errors: () => string };

/** Starts the binary (or any argv) and resolves once it printed where it listens. */
export async function startProcess(argv: string[], cwd: string, env: Record<string, string> = {}): Promise<Running> {
  const proc = Bun.spawn(argv, { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...env } });
  let text = "";
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + 15_000;
  while (!/listening on (http:\/\/\S+)/.test(text)) {
    if (Date.now() > deadline) throw new Error(`did not start: ${text}`);
    const { done, value } = await reader.read();
    if (done) throw new Error(`exited: ${text}${await new Response(proc.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  const url = /listening on (http:\/\/\S+)/.exec(text)![1]!;
  // Stderr (warnings and errors) too, so that the child never blocks on a full pipe.
  let errors = "";
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) errors += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  // Keep draining stdout so the child never blocks on a full pipe.
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      text += new TextDecoder().decode(value);
    }
  })();
  return { url, proc, output: () => text, errors: () => errors };
}
