/**
 * The crash test on PostgreSQL: two instances on one database take hooks from many senders while
 * one of them is killed with SIGKILL at random moments (and started again). Every hook answered 2xx
 * by either must be stored with its exact bytes and headers, the stats must equal the stored hooks,
 * and the handler attempts the killed instance held are taken over by the other after the lease:
 * every hook of the relay channel is delivered.
 */
import { afterAll, expect, test } from "bun:test";
import { killInstances, newDatabase, startInstance, type Instance } from "../helpers/instances";
import { AUTH } from "../helpers/client";

const ROUNDS = 6;
const SENDERS = 12;
const CHANNELS = ["orders", "payments", "relay"];
type Expected = { channel: string; body: Uint8Array; headers: Record<string, string> };
const expected = new Map<string, Expected>();

afterAll(killInstances);

async function sender(url: string, n: number, round: number, until: { stop: boolean } = { stop: false }): Promise<void> {
  for (let seq = 0; !until.stop; seq++) {
    const channel = CHANNELS[(n + seq) % CHANNELS.length]!;
    const body =
      seq % 2 ? crypto.getRandomValues(new Uint8Array(1 + ((n * 31 + seq * 17) % 700))) : new TextEncoder().encode(JSON.stringify({ round, n, seq }));
    const headers = {
      "content-type": seq % 2 ? "application/octet-stream" : "application/json",
      "x-crash-sender": `${round}-${n}`,
      "x-crash-seq": String(seq),
    };
    let res: Response;
    try {
      res = await fetch(`${url}/?channel=${channel}`, { method: "POST", body, headers });
    } catch {
      return; // the instance was killed: an unanswered hook may or may not be stored
    }
    if (res.status !== 200) throw new Error(`caught hook answered ${res.status}: ${await res.text()}`);
    expected.set(((await res.json()) as { id: string }).id, { channel, body, headers });
  }
}

/** Every stored hook, by paging; each channel's stats must equal its hooks (except `moving` ones, whose handlers change them meanwhile). */
async function storedHooks(url: string, moving: string[] = []): Promise<Map<string, any>> {
  const all = new Map<string, any>();
  for (const channel of (await (await fetch(`${url}/v1/channels`, { headers: AUTH })).json()) as any[]) {
    const counts: Record<string, number> = { pending: 0, handled: 0, failed: 0, discarded: 0 };
    for (let after = ""; ; ) {
      const page = (await (await fetch(`${url}/v1/hooks?channel=${channel.name}&limit=100${after}`, { headers: AUTH })).json()) as any[];
      for (const h of page) all.set(h.id, h), counts[h.status]!++;
      if (page.length < 100) break;
      after = `&after=${page.at(-1).id}`;
    }
    if (!moving.includes(channel.name))
      expect({ channel: channel.name, stats: channel.stats }).toEqual({
        channel: channel.name,
        stats: Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, String(v)])),
      });
  }
  return all;
}

test(`kill -9 of one of two instances under load (${ROUNDS} rounds): every 2xx hook survives, and its attempts are taken over after the lease`, async () => {
  const delivered = new Map<string, Uint8Array>();
  const receiver = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const body = new Uint8Array(await req.arrayBuffer());
      await Bun.sleep(100); // attempts are in flight when an instance is killed
      delivered.set(req.headers.get("x-mailroom-hook-id")!, body);
      return new Response("ok");
    },
  });
  try {
    const url = await newDatabase();
    const raw = {
      storage: { attempt_lease: "1s" },
      handlers: [
        {
          name: "relay-out",
          kind: "forward",
          url: `http://127.0.0.1:${receiver.port}/in`,
          max_attempts: 1000,
          concurrency: 16,
          backoff: { initial: "100ms", max: "500ms" },
        },
      ],
      channels: [{ name: "relay", handlers: ["relay-out"] }],
    };
    const steady = await startInstance(url, raw);
    let victim: Instance = await startInstance(url, raw);
    let answered = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const before = expected.size;
      const onVictim = Array.from({ length: SENDERS / 2 }, (_, n) => sender(victim.url, n, round));
      const steadyRound = { stop: false };
      const onSteady = Array.from({ length: SENDERS / 2 }, (_, n) => sender(steady.url, SENDERS + n, round, steadyRound));
      while (expected.size < before + 40) await Bun.sleep(1);
      await Bun.sleep(Math.random() * 300);
      await victim.kill();
      await Promise.all(onVictim);
      // The steady instance's senders go on while the victim is gone and starts again.
      victim = await startInstance(url, raw);
      steadyRound.stop = true;
      await Promise.all(onSteady);
      answered += expected.size - before;
      const stored = await storedHooks(steady.url, ["relay"]);
      for (const [id, want] of expected) {
        const got = stored.get(id);
        expect({ id, found: got !== undefined }).toEqual({ id, found: true });
        expect(got.channel).toBe(want.channel);
        expect(Buffer.from(got.body, "base64").equals(Buffer.from(want.body))).toBe(true);
        for (const [name, value] of Object.entries(want.headers)) expect(got.headers[name]).toBe(value);
      }
    }
    await steady.kill();
    const last = await startInstance(url, raw);
    const relay = [...expected].filter(([, e]) => e.channel === "relay");
    const deadline = Date.now() + 60_000; // bounds a failing run only
    const pending = async () => ((await (await fetch(`${last.url}/v1/channels/relay`, { headers: AUTH })).json()) as any).stats.pending;
    while ((relay.some(([id]) => !delivered.has(id)) || (await pending()) !== "0") && Date.now() < deadline) await Bun.sleep(50);
    for (const [id, want] of relay) expect(Buffer.from(delivered.get(id) ?? []).equals(Buffer.from(want.body))).toBe(true);
    await storedHooks(last.url); // all delivered: every channel's stats equal its hooks
    // Attempts held by killed instances were queued again by a live one once their lease expired.
    const takeovers = [steady, victim, last].filter((i) => i.errors().includes("attempts whose instance stopped answering are queued again"));
    expect(takeovers.length).toBeGreaterThan(0);
    console.log(`crash test (PostgreSQL): ${answered} hooks answered 2xx over ${ROUNDS} kills, ${relay.length} relay hooks delivered; none lost`);
  } finally {
    receiver.stop(true);
  }
}, 180_000);
