/**
 * Shared pieces of the benchmarks: building the executable, starting processes that print where
 * they listen, a Mailroom config in a temp directory, peak memory, and small statistics.
 */
import { copyFileSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");
export const BIN = join(ROOT, "dist/mailroom");
export const TOKEN = "bench-token-0123456789";
export const AUTH = { authorization: `Bearer ${TOKEN}` };

/** `npm run build`, so the benchmark measures the executable users run. */
export function buildBinary(): void {
  const res = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (res.exitCode !== 0) throw new Error(`npm run build failed:\n${res.stderr.toString()}`);
}

/**
 * Builds another commit's executable as its own package.json's build script does (`bun build
 * --compile`): a temporary git worktree of REF with this tree's node_modules linked in, removed
 * afterwards. Returns the executable, copied into a temp folder, and its short commit; the caller
 * removes the folder (`dispose`).
 */
export function buildCommit(ref: string): { bin: string; commit: string; dispose(): void } {
  const git = (...argv: string[]) => {
    const res = Bun.spawnSync(["git", ...argv], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (res.exitCode !== 0) throw new Error(`git ${argv.join(" ")} failed:\n${res.stderr.toString()}`);
    return res.stdout.toString().trim();
  };
  const commit = git("rev-parse", "--short", "--verify", `${ref}^{commit}`);
  const out = mkdtempSync(join(tmpdir(), `mailroom-bench-${commit}-`));
  const tree = join(out, "tree");
  git("worktree", "add", "--detach", tree, commit);
  try {
    symlinkSync(realpathSync(join(ROOT, "node_modules")), join(tree, "node_modules"));
    const res = Bun.spawnSync(["npm", "run", "--silent", "build"], { cwd: tree, stdout: "pipe", stderr: "pipe" });
    if (res.exitCode !== 0) throw new Error(`npm run build of ${commit} failed:\n${res.stderr.toString()}`);
    copyFileSync(join(tree, "dist/mailroom"), join(out, "mailroom"));
  } finally {
    Bun.spawnSync(["git", "worktree", "remove", "--force", tree], { cwd: ROOT, stdout: "ignore", stderr: "ignore" });
    rmSync(tree, { recursive: true, force: true });
    Bun.spawnSync(["git", "worktree", "prune"], { cwd: ROOT, stdout: "ignore", stderr: "ignore" });
  }
  return { bin: join(out, "mailroom"), commit, dispose: () => rmSync(out, { recursive: true, force: true }) };
}

export type Started = { url: string; pid: number; proc: Bun.Subprocess; startMs: number; stop(): Promise<void> };

/** Spawns argv and resolves once it printed `listening on http://...`. */
export async function start(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Started> {
  const t0 = performance.now();
  const proc = Bun.spawn(argv, { cwd: opts.cwd, stdin: "ignore", stdout: "pipe", stderr: "inherit", env: { ...process.env, ...opts.env } });
  const reader = proc.stdout.getReader();
  let text = "";
  let m: RegExpExecArray | null = null;
  while (!(m = /listening on (http:\/\/\S+)/.exec(text))) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${argv.join(" ")} exited before listening:\n${text}`);
    text += new TextDecoder().decode(value);
  }
  const startMs = performance.now() - t0;
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  return {
    url: m[1]!,
    pid: proc.pid,
    proc,
    startMs,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** A data directory with a mailroom.toml listening on a free port. */
export function mailroomDir(opts: { durability: "full" | "normal"; extra?: string; postgres?: string }): string {
  const dir = mkdtempSync(join(tmpdir(), `mailroom-bench-${opts.durability}-`));
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/mailroom.db"\ndurability = "${opts.durability}"\n` +
      (opts.postgres ? `url = "${opts.postgres}"\n` : "") +
      `[[api_keys]]\nlabel = "bench"\ntoken = "${TOKEN}"\n${opts.extra ?? ""}`,
  );
  return dir;
}

/** Peak resident memory of a process (VmHWM), in MiB. */
export function peakRssMiB(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** Nearest-rank percentile. */
export function percentile(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);
export const pad = (s: string | number, n: number) => String(s).padStart(n);

/** Closed-loop senders to another channel until `until()`; resolves to hooks caught per second. */
export async function catching(url: string, senders: number, until: () => boolean): Promise<number> {
  let caught = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: senders }, async () => {
      while (!until()) {
        const res = await fetch(`${url}/?channel=live`, { method: "POST", body: '{"event":"order.paid","n":1}' });
        await res.arrayBuffer();
        if (res.status === 200) caught++;
      }
    }),
  );
  return caught / ((performance.now() - t0) / 1000);
}

/**
 * Catching at a steady offered rate (open loop, as providers send): `rate` hooks a second, sent on
 * schedule whether or not earlier ones were answered (at most `maxInFlight` at once: past that an
 * offer is not sent, and counted), until `until()`. Each hook's latency counts from when it was due,
 * so a stall shows in it; an offer not sent, or not answered 200 within 30 s, counts as failed and
 * is left out of the latencies. Answers the caught rate over the offering window, the offers, the
 * hooks caught and failed, the latencies' p50 and p99 (ms) and the offers not sent.
 */
export async function steady(
  url: string,
  rate: number,
  until: () => boolean,
  maxInFlight = 1024,
): Promise<{ rate: number; offered: number; caught: number; failed: number; notSent: number; p50: number; p99: number }> {
  const t0 = performance.now();
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  let offered = 0;
  let notSent = 0;
  let caught = 0;
  let failed = 0;
  while (!until()) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    for (; offered < due; offered++) {
      if (pending.size >= maxInFlight) {
        notSent++;
        continue;
      }
      const at = t0 + (offered * 1000) / rate;
      const p = fetch(`${url}/?channel=live`, { method: "POST", body: '{"event":"order.paid","n":1}', signal: AbortSignal.timeout(30_000) })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) caught++, latencies.push(performance.now() - at);
          else failed++;
        })
        .catch(() => void failed++)
        .finally(() => pending.delete(p));
      pending.add(p);
    }
    await Bun.sleep(2);
  }
  const seconds = Math.max((performance.now() - t0) / 1000, 1e-3);
  await Promise.all(pending);
  const p = (q: number) => (latencies.length ? percentile(latencies, q) : Number.NaN);
  return { rate: caught / seconds, offered, caught, failed: failed + notSent, notSent, p50: p(50), p99: p(99) };
}

export const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify(body) }).then(
    (r) => r.json() as Promise<any>,
  );
