import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary, startProcess, type Running } from "./helpers/binary";

/**
 * Every 2xx is a durable promise: the binary is killed with SIGKILL at a random moment while many
 * senders fire hooks (and a consumer discards some), then restarted on the same file. Every hook
 * that was answered 2xx must come back with the same body bytes, headers and status, and each
 * channel's stats must equal the counts of its stored hooks. Hooks of a channel whose forward
 * handler's receiver is down keep their queued attempts across the kills and are delivered once
 * the receiver is up.
 *
 * One hook in RELAY_EVERY goes to that channel, retried every 1 to 3 s: a few hundred hooks whose
 * attempts fail all along. A third of the hooks retried every 0.5 s (1,200 of them) kept the server
 * busy failing attempts, which made each round's check of every stored hook 5 to 10 times slower.
 */
const ROUNDS = 20;
const SENDERS = 16;
const TOKEN = "crash-test-token-0123";
const AUTH = { authorization: `Bearer ${TOKEN}` };
const CHANNELS = ["orders", "payments"];
const RELAY_EVERY = 12;

type Expected = { channel: string; body: Uint8Array; headers: Record<string, string>; status: string[] };
const expected = new Map<string, Expected>();
const dir = mkdtempSync(join(tmpdir(), "mailroom-crash-"));
let running: Running | undefined;
let receiver: ReturnType<typeof Bun.serve> | undefined;
afterAll(() => {
  running?.proc.kill(9);
  receiver?.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

/** A port nobody listens on now, for a receiver that comes up later. */
function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

/** Fires hooks until the server goes away; records every 2xx as a promise to check. */
async function sender(url: string, n: number, round: number): Promise<void> {
  for (let seq = 0; ; seq++) {
    const channel = (n + seq) % RELAY_EVERY === 0 ? "relay" : CHANNELS[(n + seq) % CHANNELS.length]!;
    const json = seq % 3 === 0;
    const body = json ? new TextEncoder().encode(JSON.stringify({ round, n, seq, pad: "é".repeat(seq % 50) })) : randomBytes(1 + ((n * 31 + seq * 17) % 700));
    const headers = {
      "content-type": json ? "application/json" : "application/octet-stream",
      "x-crash-sender": `${round}-${n}`,
      "x-crash-seq": String(seq),
      "x-crash-nonce": Buffer.from(randomBytes(12)).toString("hex"),
    };
    let res: Response;
    try {
      res = await fetch(`${url}/?channel=${channel}&seq=${seq}`, { method: "POST", body, headers });
    } catch {
      return; // killed: an unanswered hook may or may not be stored
    }
    if (res.status !== 200) throw new Error(`caught hook answered ${res.status}: ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    expected.set(id, { channel, body, headers, status: ["pending"] });
  }
}

/** Discards answered hooks of handler-less channels; a discard cut by the kill may or may not have happened. */
async function consumer(url: string): Promise<void> {
  for (const [id, want] of expected) {
    if (want.channel === "relay" || want.status.length !== 1 || want.status[0] !== "pending" || Math.random() < 0.7) continue;
    want.status = ["pending", "discarded"];
    let res: Response;
    try {
      res = await fetch(`${url}/v1/hooks/${id}/discard`, { method: "POST", headers: AUTH });
    } catch {
      return;
    }
    if (res.status !== 200) throw new Error(`discard answered ${res.status}: ${await res.text()}`);
    want.status = ["discarded"];
  }
}

/** Every stored hook of every channel, by paging; also checks each channel's stats against them. */
async function storedHooks(url: string): Promise<Map<string, any>> {
  const all = new Map<string, any>();
  const channels = (await (await fetch(`${url}/v1/channels`, { headers: AUTH })).json()) as any[];
  for (const channel of channels) {
    const counts: Record<string, number> = { pending: 0, handled: 0, failed: 0, discarded: 0 };
    let after = "";
    for (;;) {
      const page = (await (await fetch(`${url}/v1/hooks?channel=${channel.name}&limit=100${after}`, { headers: AUTH })).json()) as any[];
      for (const h of page) all.set(h.id, h), counts[h.status]!++;
      if (page.length < 100) break;
      after = `&after=${page.at(-1).id}`;
    }
    expect({ channel: channel.name, stats: channel.stats }).toEqual({
      channel: channel.name,
      stats: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, String(v)])),
    });
  }
  return all;
}

function checkPromises(stored: Map<string, any>, round: number): void {
  let lost = 0;
  for (const [id, want] of expected) {
    const got = stored.get(id);
    if (!got) {
      lost++;
      continue;
    }
    expect(got.channel).toBe(want.channel);
    expect(Buffer.from(got.body, "base64").equals(Buffer.from(want.body))).toBe(true);
    for (const [name, value] of Object.entries(want.headers)) expect(got.headers[name]).toBe(value);
    if (want.channel !== "relay") expect(want.status).toContain(got.status);
  }
  expect({ round, lost }).toEqual({ round, lost: 0 });
}

test(`kill -9 at random moments (${ROUNDS} rounds, durability full and normal in turn): every 2xx hook survives, stats match, queued attempts resume`, async () => {
  const bin = await buildBinary();
  const receiverPort = freePort();
  // Both levels promise to survive a crash of the process; rounds alternate between them on one file.
  const configure = (durability: "full" | "normal") =>
    writeFileSync(
      join(dir, "mailroom.toml"),
      `[server]\nport = 0\n[storage]\npath = "data/crash.db"\ndurability = "${durability}"\n` +
        `[[api_keys]]\nlabel = "crash"\ntoken = "${TOKEN}"\n` +
        `[[handlers]]\nname = "relay-out"\nkind = "forward"\nurl = "http://127.0.0.1:${receiverPort}/in"\n` +
        `max_attempts = 1000\nconcurrency = 8\nbackoff = { initial = "1s", max = "3s" }\n` +
        `[[channels]]\nname = "relay"\nhandlers = ["relay-out"]\n`,
    );

  let answeredTotal = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    configure(round % 2 ? "full" : "normal");
    running = await startProcess([bin], dir);
    const url = running.url;
    if (round > 1) checkPromises(await storedHooks(url), round - 1);
    const before = expected.size;
    const senders = Array.from({ length: SENDERS }, (_, n) => sender(url, n, round));
    // Kill once a few hooks were answered, at a random moment while requests are in flight.
    while (expected.size < before + 20) await Bun.sleep(1);
    const discards = consumer(url);
    await Bun.sleep(Math.random() * 300);
    running.proc.kill(9);
    await running.proc.exited;
    await Promise.all([...senders, discards]);
    answeredTotal += expected.size - before;
  }

  // The last restart: check again, then bring the receiver up; every relay hook must be delivered.
  configure("full");
  running = await startProcess([bin], dir);
  checkPromises(await storedHooks(running.url), ROUNDS);
  const delivered = new Map<string, Uint8Array>();
  receiver = Bun.serve({
    port: receiverPort,
    hostname: "127.0.0.1",
    async fetch(req) {
      delivered.set(req.headers.get("x-mailroom-hook-id")!, new Uint8Array(await req.arrayBuffer()));
      return new Response("ok");
    },
  });
  const relay = [...expected].filter(([, e]) => e.channel === "relay");
  expect(relay.length).toBeGreaterThan(0);
  // Waits for delivery (not a timing assertion: the deadline only bounds a failing run).
  const deadline = Date.now() + 30_000;
  const relayPending = async () => ((await (await fetch(`${running!.url}/v1/channels/relay`, { headers: AUTH })).json()) as any).stats.pending;
  while ((relay.some(([id]) => !delivered.has(id)) || (await relayPending()) !== "0") && Date.now() < deadline) await Bun.sleep(50);
  for (const [id, want] of relay) expect(Buffer.from(delivered.get(id) ?? []).equals(Buffer.from(want.body))).toBe(true);
  // The first relay hook was caught before the first kill: its attempts failed across every restart, then one succeeded.
  const attempts = (await (await fetch(`${running.url}/v1/hooks/${relay[0]![0]}/attempts`, { headers: AUTH })).json()) as any[];
  expect(attempts.filter((a) => a.outcome === "failed").length).toBeGreaterThan(1);
  expect(attempts.at(-1).outcome).toBe("succeeded");
  const discarded = [...expected.values()].filter((e) => e.status.includes("discarded")).length;
  console.log(
    `crash test: ${answeredTotal} hooks answered 2xx over ${ROUNDS} kills, ${discarded} discards, ${relay.length} relay hooks delivered after the restarts; none lost`,
  );
  running.proc.kill("SIGTERM");
  await running.proc.exited;
}, 360_000);
