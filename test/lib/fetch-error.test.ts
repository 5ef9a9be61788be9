import { expect, test } from "bun:test";
import { fetchFailure } from "../../src/lib/fetch-error";

/** What fetch() threw for `url`. */
const thrown = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(5000) }).then(
    () => undefined,
    (e: unknown) => e,
  );

test("a fetch that fails is told in a few words, without Bun's advice to its developer", async () => {
  const closed = Bun.serve({ port: 0, fetch: () => new Response("") });
  const port = closed.port;
  closed.stop(true);
  // A listener that closes every connection at once, and one that answers what is not TLS.
  const reset = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: (s) => void s.terminate(), data() {} } });
  const plain = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: (s) => void (s.write("nonsense\r\n\r\n"), s.end()) } });
  try {
    expect(fetchFailure(await thrown(`http://127.0.0.1:${port}/`))).toBe("connection refused");
    expect(fetchFailure(await thrown(`http://127.0.0.1:${reset.port}/`))).toBe("connection closed before an answer");
    expect(fetchFailure(await thrown(`https://127.0.0.1:${plain.port}/`))).toBe("TLS handshake failed");
  } finally {
    reset.stop(true);
    plain.stop(true);
  }
});

test("an error with no known code keeps its first sentence, and its code", () => {
  const e = Object.assign(new Error("EWHATEVER: Something odd happened. For more information, pass `verbose: true`"), { code: "EWHATEVER" });
  expect(fetchFailure(e)).toBe("Something odd happened (EWHATEVER)");
  expect(fetchFailure(new Error("plain message"))).toBe("plain message");
  expect(fetchFailure(new Error("x".repeat(500))).length).toBeLessThanOrEqual(160);
});
