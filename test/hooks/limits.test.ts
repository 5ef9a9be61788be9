import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { serve } from "../../src/server";
import { createTestApp } from "../helpers/app";

/**
 * Body limits and broken senders, over raw sockets: a body over max_body is refused with 413
 * before it is read, and a sender that goes away mid-body leaves no hook behind.
 */
const t = createTestApp({ hooks: { max_body: "64KB" } });
let server: ReturnType<typeof serve>;
beforeAll(() => void (server = serve(t, { host: "127.0.0.1", port: 0 })));
afterAll(() => server.stop(true));

type Conn = { write(text: string | Uint8Array): void; close(): void; response: Promise<string>; closed: Promise<void> };

/** A raw TCP connection to the server; `response` resolves with the first bytes the server answers. */
async function connect(): Promise<Conn> {
  let answer!: (s: string) => void;
  let ended!: () => void;
  const response = new Promise<string>((r) => (answer = r));
  const closed = new Promise<void>((r) => (ended = r));
  const socket = await Bun.connect({
    hostname: "127.0.0.1",
    port: server.port!,
    socket: {
      data: (_s, data) => answer(new TextDecoder().decode(data)),
      close: () => (answer(""), ended()),
      error: () => (answer(""), ended()),
    },
  });
  return { write: (x) => void socket.write(x), close: () => socket.end(), response, closed };
}

const head = (channel: string, extra: string) =>
  `POST /?channel=${channel} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n${extra}\r\n`;

/** Waits until the server has finished every request it started (the aborted ones included). */
async function settled(): Promise<void> {
  while (server.pendingRequests > 0) await Bun.sleep(1);
  await t.writer.drain();
}

const storedIn = async (channel: string) => (await t.call("GET", `/v1/hooks?channel=${channel}`)).json as any[];

describe("a body larger than max_body", () => {
  test("declared by Content-Length is refused with 413 before a byte of it is sent", async () => {
    const conn = await connect();
    conn.write(head("big", `Content-Length: ${64 * 1024 + 1}\r\n`));
    // No body is ever sent: an answer can only come from the declared length.
    expect(await conn.response).toStartWith("HTTP/1.1 413");
    conn.close();
    await settled();
    expect(await storedIn("big")).toEqual([]);
  });

  test("sent chunked is refused with 413 as soon as it passes the limit, without waiting for the rest", async () => {
    const conn = await connect();
    conn.write(head("big-chunked", "Transfer-Encoding: chunked\r\n"));
    const chunk = 16 * 1024;
    for (let i = 0; i < 5; i++) conn.write(`${chunk.toString(16)}\r\n${"x".repeat(chunk)}\r\n`);
    // The terminating chunk is never sent.
    expect(await conn.response).toStartWith("HTTP/1.1 413");
    conn.close();
    await settled();
    expect(await storedIn("big-chunked")).toEqual([]);
  });

  test("exactly max_body bytes is caught", async () => {
    const res = await fetch(`http://127.0.0.1:${server.port}/?channel=edge`, { method: "POST", body: "y".repeat(64 * 1024) });
    expect(res.status).toBe(200);
    const [hook] = await storedIn("edge");
    expect(Buffer.from(hook.body, "base64").length).toBe(64 * 1024);
  });
});

describe("a sender that disconnects mid-body", () => {
  test("with Content-Length leaves no partial hook", async () => {
    const conn = await connect();
    conn.write(head("cut", "Content-Length: 1000\r\n"));
    conn.write("z".repeat(500));
    await Bun.sleep(0);
    conn.close();
    await conn.closed;
    await settled();
    expect(await storedIn("cut")).toEqual([]);
  });

  test("chunked leaves no partial hook", async () => {
    const conn = await connect();
    conn.write(head("cut-chunked", "Transfer-Encoding: chunked\r\n"));
    conn.write(`100\r\n${"z".repeat(256)}\r\n`);
    await Bun.sleep(0);
    conn.close();
    await conn.closed;
    await settled();
    expect(await storedIn("cut-chunked")).toEqual([]);
  });

  test("the same requests sent whole are caught (the checks above can fail)", async () => {
    const whole = await connect();
    whole.write(head("whole", "Content-Length: 1000\r\n") + "z".repeat(1000));
    expect(await whole.response).toStartWith("HTTP/1.1 200");
    whole.close();
    const chunked = await connect();
    chunked.write(head("whole-chunked", "Transfer-Encoding: chunked\r\n") + `100\r\n${"z".repeat(256)}\r\n0\r\n\r\n`);
    expect(await chunked.response).toStartWith("HTTP/1.1 200");
    chunked.close();
    await settled();
    expect((await storedIn("whole")).map((h) => Buffer.from(h.body, "base64").length)).toEqual([1000]);
    expect((await storedIn("whole-chunked")).map((h) => Buffer.from(h.body, "base64").length)).toEqual([256]);
  });
});
