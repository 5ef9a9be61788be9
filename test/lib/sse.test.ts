import { expect, test } from "bun:test";
import { eventParser, readEvents } from "../../src/lib/sse";

const bodyOf = (...pieces: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of pieces) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

const all = async (body: ReadableStream<Uint8Array>) => {
  const out = [];
  for await (const e of readEvents(body)) out.push(e);
  return out;
};

test("events with their id, type and data, whatever the pieces the bytes arrive in", async () => {
  const text = 'id: e1-1\nevent: hook\ndata: {"id":"h1"}\n\n: heartbeat\n\nevent: reset\ndata: {}\n\n';
  const whole = await all(bodyOf(text));
  expect(whole).toEqual([
    { id: "e1-1", event: "hook", data: '{"id":"h1"}' },
    { id: undefined, event: "reset", data: "{}" },
  ]);
  // One byte at a time: a line cut in two, and a character cut between its bytes ("é").
  const bytes = new TextEncoder().encode(`${text}data: é\n\n`);
  const oneByOne = new ReadableStream<Uint8Array>({
    start(c) {
      for (const b of bytes) c.enqueue(new Uint8Array([b]));
      c.close();
    },
  });
  expect(await all(oneByOne)).toEqual([...whole, { id: undefined, event: "message", data: "é" }]);
});

test("as the standard reads them: data lines joined, CRLF, no space after the colon, an event without data", async () => {
  expect(await all(bodyOf("data: a\r\ndata:b\r\nretry: 5\r\n\r\nevent: skipped\n\n\nid\n\n"))).toEqual([
    { id: undefined, event: "message", data: "a\nb" },
    { id: undefined, event: "skipped", data: "" },
  ]);
});

test("the last block is no event until its blank line arrives", async () => {
  expect(await all(bodyOf("event: hook\ndata: 1\n"))).toEqual([]);
});

test("a parser fed text hands comments to its listener and returns the events each piece completes", () => {
  const comments: string[] = [];
  const parse = eventParser((c) => comments.push(c));
  expect(parse(": keep-alive\n\nevent: hook\nda")).toEqual([]);
  expect(comments).toEqual([" keep-alive"]);
  expect(parse("ta: 1\n\n")).toEqual([{ id: undefined, event: "hook", data: "1" }]);
});
