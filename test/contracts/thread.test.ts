/**
 * The contract checks' thread (contracts/threaded.ts) gives exactly what the checks on the serving
 * thread give: the same verdicts, violations and fresh field paths, batch by batch, for GitHub's
 * sample events, a channel's own schema and bodies that are not JSON. It runs at the lowest
 * priority; when it falls over the checks go on here. A flood past the bound on bodies held for it
 * leaves every hook checked, the same as on one thread.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { type ContractRecord, createContracts } from "../../src/contracts";
import { type Analyse, createAnalyse, type AnalyseInput } from "../../src/contracts/analyse";
import { compileUserSchema, createContractChecker } from "../../src/contracts/check";
import { openDatabase } from "../../src/db/sqlite/open";
import { createSqliteStorage } from "../../src/db/sqlite/storage";
import { systemClock } from "../../src/lib/clock";
import { createIdFactory } from "../../src/lib/ids";
import { startAnalyseThread } from "../../src/contracts/threaded";
import examples from "../../src/triggers/github-examples.json";

const enc = (s: string) => new TextEncoder().encode(s);
const own = {
  billing: [{ pattern: "invoice.*", validate: compileUserSchema({ type: "object", required: ["amount"], properties: { amount: { type: "integer" } } }) }],
};

test("the thread's analyses equal the serving thread's, in order, with the seen paths carried across batches", async () => {
  const hooks: AnalyseInput[] = Object.entries(examples as Record<string, unknown>).map(([type, body], i) => ({
    id: `h${i}`,
    channel: "gh",
    eventType: type,
    headers: JSON.stringify({ "x-github-event": type.split(".")[0] }),
    body: enc(JSON.stringify(i % 7 === 0 ? { ...(body as object), repository: 5 } : body)),
  }));
  hooks.push(
    { id: "b1", channel: "billing", eventType: "invoice.paid", headers: "{}", body: enc('{"amount":"12"}') },
    { id: "b2", channel: "billing", eventType: "invoice.paid", headers: "{}", body: enc('{"amount":12,"extra":true}') },
    { id: "b3", channel: "billing", eventType: "invoice.paid", headers: "{}", body: enc("not json") },
  );
  const checker = createContractChecker((c) => own[c as "billing"]);
  const here = createAnalyse(checker);
  const thread = startAnalyseThread({
    url: new URL("../../src/contracts/thread.ts", import.meta.url).href,
    schemas: own,
    checker,
    log: {
      error: (m) => {
        throw new Error(m);
      },
    },
  });
  try {
    for (let i = 0; i < hooks.length; i += 40) {
      const batch = hooks.slice(i, i + 40);
      expect(await thread.analyse(batch)).toEqual(await here(batch));
    }
    // Seen once, never fresh again; on both.
    expect((await thread.analyse(hooks.slice(0, 3))).map((a) => a.fresh)).toEqual([[], [], []]);
    const results = (await here(hooks.slice(-3))).map((a) => a.result);
    expect(results).toEqual(["invalid", "valid", "invalid"]);
  } finally {
    thread.close();
  }
});

const THREAD = new URL("../../src/contracts/thread.ts", import.meta.url).href;

/** GitHub's sample events, each as a stored hook of channel `gh` (every 5th with a field of the wrong type, every 7th with one more). */
function githubHooks(n: number, newId: () => string): AnalyseInput[] {
  const samples = Object.entries(examples as Record<string, unknown>);
  return Array.from({ length: n }, (_, i) => {
    const [type, body] = samples[i % samples.length]!;
    const changed = i % 5 === 0 ? { ...(body as object), sender: "x" } : i % 7 === 0 ? { ...(body as object), [`extra${i % 3}`]: 1 } : body;
    return {
      id: newId(),
      channel: "gh",
      eventType: type,
      headers: JSON.stringify({ "x-github-event": type.split(".")[0] }),
      body: enc(JSON.stringify(changed)),
    };
  });
}

/** A store with these hooks in it, and contract checks over it (`analyse`, `maxWaitingBytes` as given). */
async function checksOver(hooks: AnalyseInput[], opts: { analyse?: Analyse; maxWaitingBytes?: number }) {
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  const storage = createSqliteStorage(db, { path: ":memory:", durability: "normal" });
  await storage.hooks.insertHooks(
    hooks.map((h) => ({ ...h, method: "POST", query: "", ip: "127.0.0.1", createdAt: 1 })),
    () => [],
  );
  const read: string[] = [];
  const contracts = createContracts({
    store: storage.contracts,
    checker: createContractChecker(),
    ...opts,
    read: async (ids) => (read.push(...ids), (await storage.hooks.getHooks(ids)).map((h) => ({ ...h, headers: JSON.stringify(h.headers) }))),
    clock: { now: () => 1 },
    log: {
      error: (m) => {
        throw new Error(m);
      },
    },
  });
  const caught = (batch: AnalyseInput[]) => contracts.caught(batch.map((h) => ({ ...h, method: "POST", query: "", ip: "127.0.0.1", createdAt: 1 })));
  return { storage, contracts, read, caught };
}

test("a flood past the bound on waiting bodies: every hook is checked in the end, as on one thread, the bodies read back", async () => {
  const newId = createIdFactory(systemClock);
  const hooks = githubHooks(3000, newId);
  const batches: AnalyseInput[][] = [];
  for (let i = 0; i < hooks.length; i += 2) batches.push(hooks.slice(i, i + 2));

  // The analysis held back until the flood is in (a thread that gets no CPU while catching takes it all).
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const here = createAnalyse(createContractChecker());
  const analyse: Analyse = async (batch) => (await gate, here(batch));
  const bound = 64 * 1024;
  const flooded = await checksOver(hooks, { analyse, maxWaitingBytes: bound });
  let most = 0;
  for (const b of batches) flooded.caught(b), (most = Math.max(most, flooded.contracts.waiting().bytes));
  // 1,500 batches: more than the 1,000 that used to be kept before the rest were left unchecked.
  expect(most).toBeLessThanOrEqual(bound);
  // All but the batch under analysis wait, nearly all of them as ids only.
  const { hooks: waited, asIds } = flooded.contracts.waiting();
  expect(waited).toBe(hooks.length - 2);
  expect(asIds).toBeGreaterThan(hooks.length - 100);
  open();
  await flooded.contracts.settled();
  expect(flooded.contracts.waiting()).toEqual({ hooks: 0, asIds: 0, bytes: 0 });
  expect(flooded.read.length).toBe(asIds);

  // The same hooks checked on one thread as they come, nothing held back.
  const plain = await checksOver(hooks, { maxWaitingBytes: Number.POSITIVE_INFINITY });
  for (const b of batches) plain.caught(b);
  await plain.contracts.settled();
  expect(plain.read).toEqual([]);

  const ids = hooks.map((h) => h.id);
  const strip = (m: Map<string, ContractRecord>) => ids.map((id) => m.get(id) && { ...m.get(id)!, checkedAt: 0 });
  const [got, want] = [strip(await flooded.storage.contracts.of(ids)), strip(await plain.storage.contracts.of(ids))];
  expect(got.filter((r) => r === undefined).length).toBe(0);
  expect(got).toEqual(want);
  const results = new Set(got.map((r) => r!.result));
  expect(results).toEqual(new Set(["valid", "invalid"]));
  expect(got.some((r) => r!.newField)).toBe(true);
}, 120_000);

/** This process's threads at a lowered priority: SCHED_IDLE or nice 19 (from /proc/self/task/TID/stat). */
function lowered(): string[] {
  return readdirSync("/proc/self/task").filter((tid) => {
    const f = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(f[16]) === 19 || Number(f[38]) === 5;
  });
}

test.skipIf(process.platform !== "linux")("the checks' thread runs at the lowest priority, the serving thread as it was", async () => {
  const before = lowered();
  const self = readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1]!.split(" ");
  const thread = startAnalyseThread({ url: THREAD, schemas: {}, checker: createContractChecker(), log: { error: (m) => expect(m).toBeUndefined() } });
  try {
    // Answered: its init (where it lowers itself) came first.
    await thread.analyse(githubHooks(1, createIdFactory(systemClock)));
    // Its thread (and any it started since, which inherit the policy).
    const now = lowered().filter((t) => !before.includes(t));
    expect(now.length).toBeGreaterThanOrEqual(1);
    expect(now).not.toContain(String(process.pid));
    const after = readFileSync("/proc/thread-self/stat", "utf8").split(") ")[1]!.split(" ");
    expect([after[16], after[38]]).toEqual([self[16], self[38]]);
  } finally {
    thread.close();
  }
});

test("a thread that falls over: its batch and the next are checked on this thread, the same, and it is said once", async () => {
  const errors: string[] = [];
  const checker = createContractChecker();
  const thread = startAnalyseThread({
    url: new URL("./fixtures/failing-thread.ts", import.meta.url).href,
    schemas: {},
    checker,
    log: { error: (m) => void errors.push(m) },
  });
  try {
    const hooks = githubHooks(60, createIdFactory(systemClock));
    const here = createAnalyse(createContractChecker());
    const got = [...(await thread.analyse(hooks.slice(0, 30))), ...(await thread.analyse(hooks.slice(30)))];
    expect(got).toEqual(await here(hooks));
    expect(errors).toEqual(["the contract checks' thread stopped; checking on the main thread"]);
  } finally {
    thread.close();
  }
});
