import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { eventually, startTarget, type Target } from "../helpers/target";

/**
 * HTTP/1.1 pipelining at the catching endpoint, over a raw socket (node:net), on every target:
 * two POSTs sent in one write. Whatever the server can do with them (answer both; answer the first
 * with `Connection: close` and leave the second unread; answer neither and close), a hook it
 * stores is one it answered: never a stored hook whose sender saw no answer and will send it again.
 */

let t: Target;
let port: number;
beforeAll(async () => {
  t = await startTarget({ channels: [{ name: "pipe" }, { name: "burst" }, { name: "control" }] });
  port = Number(new URL(await t.url()).port);
}, 60_000);
afterAll(() => t.stop());

type Answer = { status: number; headers: Record<string, string>; body: string };

/** Parses the complete responses in `text` (each with a Content-Length). */
function answers(text: string): Answer[] {
  const out: Answer[] = [];
  let at = 0;
  for (;;) {
    const end = text.indexOf("\r\n\r\n", at);
    if (end < 0) return out;
    const [status, ...lines] = text.slice(at, end).split("\r\n");
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"] ?? 0);
    if (text.length < end + 4 + length) return out;
    out.push({ status: Number(status!.split(" ")[1]), headers, body: text.slice(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
}

/** Writes `text` in one write; resolves with the answers once both came or the server closed. */
function exchange(text: string): Promise<Answer[]> {
  const { promise, resolve } = Promise.withResolvers<Answer[]>();
  let got = "";
  const socket = connect(port, "127.0.0.1", () => socket.write(text));
  socket.on("data", (d) => {
    got += d.toString("latin1");
    if (answers(got).length === 2) socket.end();
  });
  socket.on("close", () => resolve(answers(got)));
  socket.on("error", () => {});
  return promise;
}

const post = (n: number, channel = "pipe") => {
  const body = `{"n":${n}}`;
  return `POST /?channel=${channel} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
};

test("two pipelined POSTs in one write: every stored hook was answered, and an answer that leaves a request unread says Connection: close", async () => {
  const got = await exchange(post(1) + post(2));
  // A hook sent after the pipelined ones went through the same writer: once it is answered, the
  // pipelined ones were stored or left out.
  expect((await t.post("control", "{}")).status).toBe(200);

  const answered = got.filter((a) => a.status === 200).map((a) => (JSON.parse(a.body) as { id: string }).id);
  const stored = ((await t.call("GET", "/v1/hooks?channel=pipe")).json as { id: string }[]).map((h) => h.id);
  expect(stored.toSorted()).toEqual(answered.toSorted());
  if (got.length === 1) {
    expect(got[0]!.headers.connection).toBe("close");
    expect(stored).toHaveLength(1);
  }
  // The sender sends both again, one at a time: each stored once.
  for (const n of [1, 2]) expect((await t.post("pipe", `{"n":${n}}`, { "content-type": "application/json" })).status).toBe(200);
  const bodies = ((await t.call("GET", "/v1/hooks?channel=pipe")).json as { payload: unknown }[]).map((h) => JSON.stringify(h.payload));
  expect(bodies.toSorted()).toEqual(['{"n":1}', '{"n":2}']);
});

/**
 * One connection: sends `first`, then `second` once `cue` resolved; resolves with the ids answered
 * 2xx once both were answered or the server closed the connection.
 */
function pipelined(first: string, second: string, cue: Promise<unknown>): Promise<string[]> {
  const { promise, resolve } = Promise.withResolvers<string[]>();
  let got = "";
  const socket = connect(port, "127.0.0.1", () => {
    socket.write(first);
    void cue.then(() => socket.write(second));
  });
  socket.on("data", (d) => {
    got += d.toString("latin1");
    if (answers(got).length === 2) socket.end();
  });
  socket.on("close", () => resolve(answers(got).flatMap((a) => (a.status === 200 ? [(JSON.parse(a.body) as { id: string }).id] : []))));
  socket.on("error", () => {});
  return promise;
}

/** Every hook id of the channel, page by page. */
async function storedIds(channel: string): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const after = ids.length ? `&after=${ids.at(-1)}` : "";
    const page = (await t.call("GET", `/v1/hooks?channel=${channel}&limit=100${after}`)).json as { id: string }[];
    ids.push(...page.map((h) => h.id));
    if (page.length < 100) return ids;
  }
}

test("connections sending their second POST while other batches commit: the hooks listed and counted are exactly those answered 2xx", async () => {
  const answered: string[] = [];
  for (let round = 0; round < 50; round++) {
    // Connection i sends its second request once connection i - 1 was answered or closed: a batch
    // has just ended, and the next one, holding connection i's first hook, is being committed.
    const ends: Promise<string[]>[] = [];
    for (let i = 0; i < 12; i++) {
      const n = round * 100 + 2 * i;
      ends.push(pipelined(post(n, "burst"), post(n + 1, "burst"), ends[i - 1] ?? Promise.resolve()));
    }
    for (const ids of await Promise.all(ends)) answered.push(...ids);
  }
  // A hook sent after them went through the same writer. A hook taken back is committed a moment
  // before (listed and counted until then), and on PostgreSQL batches commit side by side: wait
  // for the listing and the counters to agree with the answers, then compare (a failure shows both).
  expect((await t.post("control", "{}")).status).toBe(200);
  const expected = answered.toSorted();
  const observed = async () => {
    const stats = ((await t.call("GET", "/v1/channels/burst")).json as { stats: Record<string, string> }).stats;
    return { listed: (await storedIds("burst")).toSorted(), counted: Object.values(stats).reduce((sum, n) => sum + Number(n), 0) };
  };
  const agree = async () => {
    const o = await observed();
    return Bun.deepEquals(o, { listed: expected, counted: expected.length }) ? o : undefined;
  };
  expect(await eventually("the hooks listed and counted to be those answered", agree, 5_000).catch(observed)).toEqual({
    listed: expected,
    counted: expected.length,
  });
}, 60_000);
