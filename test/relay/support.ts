/**
 * Real processes on loopback for the relay's tests: an upstream executable (a relay key for
 * channel "stripe", a public listener), a laptop executable (`mailroom listen ... --forward-to`)
 * and a receiving app in this process that records what it gets.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { buildBinary, startProcess, tempDir, type Running } from "../helpers/binary";
import { AUTH, httpClient, TOKEN } from "../helpers/client";

export const RELAY_TOKEN = "relay-key-for-stripe-0123";
const started: Running[] = [];

/** Kills every process started here (afterEach). */
export async function killAll(): Promise<void> {
  await Promise.all(started.splice(0).map((r) => (r.proc.kill("SIGKILL"), r.proc.exited)));
}

async function run(argv: string[], dir: string) {
  const bin = await buildBinary();
  const running = await startProcess([bin, ...argv], dir, { MAILROOM_DATABASE_URL: "" });
  started.push(running);
  const client = httpClient((path, init) => fetch(`${running.url}${path}`, { redirect: "manual", ...init }));
  return {
    ...running,
    ...client,
    dir,
    async kill() {
      running.proc.kill("SIGKILL");
      await running.proc.exited;
    },
  };
}

export type Upstream = Awaited<ReturnType<typeof startUpstream>>;

/** The upstream Mailroom: `dir` and `ports` again restart it on the same data and addresses. */
export async function startUpstream(
  opts: {
    dir?: string;
    ports?: { main: number; public: number };
    pgUrl?: string;
    maxBody?: string;
    attemptLease?: string;
    guards?: unknown[];
    channels?: unknown[];
  } = {},
) {
  const dir = opts.dir ?? tempDir("mailroom-upstream-");
  const config = {
    server: { host: "127.0.0.1", port: opts.ports?.main ?? 0, public: { host: "127.0.0.1", port: opts.ports?.public ?? 0 } },
    storage: {
      path: join(dir, "data", "up.db"),
      durability: "normal",
      ...(opts.pgUrl ? { url: opts.pgUrl } : {}),
      ...(opts.attemptLease ? { attempt_lease: opts.attemptLease } : {}),
    },
    ...(opts.maxBody ? { hooks: { max_body: opts.maxBody } } : {}),
    ...(opts.guards ? { guards: opts.guards } : {}),
    ...(opts.channels ? { channels: opts.channels } : {}),
    api_keys: [
      { label: "test", token: TOKEN },
      { label: "laptop", token: RELAY_TOKEN, scopes: ["relay"], channels: ["stripe"] },
    ],
  };
  writeFileSync(join(dir, "mailroom.toml"), stringify(config));
  const up = await run(["serve", "--config", join(dir, "mailroom.toml")], dir);
  const publicUrl = /public: +(http:\/\/\S+)/.exec(up.output())![1]!;
  const ports = { main: Number(new URL(up.url).port), public: Number(new URL(publicUrl).port) };
  /** Sends one hook to the public listener. */
  const send = (body: string | Uint8Array, headers: Record<string, string> = {}, method = "POST", query = "channel=stripe") =>
    fetch(`${publicUrl}/?${query}`, { method, body, headers });
  return { ...up, publicUrl, ports, send };
}

export type Laptop = Awaited<ReturnType<typeof startLaptop>>;

/**
 * `mailroom listen` to the upstream's public listener, forwarding to `appUrl` (or with these
 * forwarding flags: `--forward PATTERN=URL ...`); `dir` again restarts it on the same data;
 * `maxBody` is its own `[hooks] max_body`.
 */
export async function startLaptop(upstreamUrl: string, appUrl: string | string[], dir = tempDir("mailroom-laptop-"), maxBody?: string) {
  const config = {
    server: { host: "127.0.0.1", port: 0 },
    storage: { path: join(dir, "data", "laptop.db"), durability: "normal" },
    ...(maxBody ? { hooks: { max_body: maxBody } } : {}),
    api_keys: [{ label: "test", token: TOKEN }],
  };
  writeFileSync(join(dir, "mailroom.toml"), stringify(config));
  const forward = typeof appUrl === "string" ? ["--forward-to", appUrl] : appUrl;
  const argv = ["listen", upstreamUrl, "--channel", "stripe", "--token", RELAY_TOKEN, ...forward, "--config", join(dir, "mailroom.toml")];
  return run(argv, dir);
}

/** Every hook id of a channel on a Mailroom, following the pages (newest first). */
export async function allIds(m: { call: (method: string, path: string) => Promise<{ json: any }> }, channel = "stripe"): Promise<string[]> {
  const ids: string[] = [];
  let after = "";
  for (;;) {
    const page = (await m.call("GET", `/v1/hooks?channel=${channel}&limit=100&fields=summary${after ? `&after=${after}` : ""}`)).json as { id: string }[];
    ids.push(...page.map((h) => h.id));
    if (page.length < 100) return ids;
    after = page.at(-1)!.id;
  }
}

/** A channel's counters on a Mailroom (0 for a channel not there yet). */
export async function stats(m: { call: (method: string, path: string) => Promise<{ status: number; json: any }> }, channel = "stripe") {
  const res = await m.call("GET", `/v1/channels/${channel}`);
  const s = res.status === 200 ? res.json.stats : {};
  return { pending: Number(s.pending ?? 0), handled: Number(s.handled ?? 0), failed: Number(s.failed ?? 0) };
}

export type Received = { id: string; method: string; headers: Headers; body: Uint8Array; at: number };

/** The app the laptop forwards to: records each request; `down()` frees its port, `up()` listens there again. */
export function startApp() {
  const received: Received[] = [];
  let server: ReturnType<typeof Bun.serve> | undefined;
  let port = 0;
  const up = () => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port,
      async fetch(request) {
        const body = new Uint8Array(await request.arrayBuffer());
        received.push({ id: request.headers.get("x-mailroom-hook-id") ?? "", method: request.method, headers: request.headers, body, at: Date.now() });
        return new Response("ok");
      },
    });
    port = server.port!;
  };
  up();
  return {
    received,
    url: `http://127.0.0.1:${port}/hooks`,
    up,
    async down() {
      await server?.stop(true);
      server = undefined;
    },
    ids: () => new Set(received.map((r) => r.id)),
  };
}

export { AUTH };

/**
 * `mailroom listen` to `upstreamUrl` run until it exits by itself (within `ms`, else killed): its
 * status and output. For refusals that must end it.
 */
export async function runLaptopToExit(upstreamUrl: string, opts: { channel: string; token: string; ms?: number }) {
  const dir = tempDir("mailroom-laptop-");
  const config = { server: { host: "127.0.0.1", port: 0 }, storage: { path: join(dir, "data", "laptop.db"), durability: "normal" } };
  writeFileSync(join(dir, "mailroom.toml"), stringify(config));
  const bin = await buildBinary();
  const argv = [bin, "listen", upstreamUrl, "--channel", opts.channel, "--token", opts.token, "--config", join(dir, "mailroom.toml")];
  const proc = Bun.spawn(argv, { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "pipe", env: { ...process.env, MAILROOM_DATABASE_URL: "" } });
  const timer = setTimeout(() => proc.kill("SIGKILL"), opts.ms ?? 30_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr, killed: proc.signalCode === "SIGKILL" };
}
