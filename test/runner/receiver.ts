import { afterEach } from "bun:test";
/**
 * A real HTTP receiver on 127.0.0.1, port 0, whose answers the test decides: each request is
 * recorded, then answered by the next scripted answer (the last one repeats).
 */
export type Received = { method: string; path: string; headers: Record<string, string>; body: Uint8Array };
/** `hold` keeps the request open that many ms, so overlapping attempts can be observed. */
export type Answer = { status: number; body?: string; headers?: Record<string, string>; hold?: number };

export function createReceiver(...answers: Answer[]) {
  const received: Received[] = [];
  let open = 0;
  let mostAtOnce = 0;
  let waiters: { n: number; resolve: () => void }[] = [];
  let script = answers.length ? answers : [{ status: 200, body: "ok" }];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      received.push({
        method: req.method,
        path: url.pathname + url.search,
        headers: Object.fromEntries(req.headers),
        body: new Uint8Array(await req.arrayBuffer()),
      });
      waiters = waiters.filter((w) => (received.length >= w.n ? (w.resolve(), false) : true));
      const answer = script.length > 1 ? script.shift()! : script[0]!;
      open++;
      mostAtOnce = Math.max(mostAtOnce, open);
      if (answer.hold) await Bun.sleep(answer.hold);
      open--;
      return new Response(answer.body ?? "", { status: answer.status, headers: answer.headers });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    received,
    /** The most requests that were open at the same time. */
    mostAtOnce: () => mostAtOnce,
    /** Resolves once `n` requests have arrived (for the background loop, which no test drives). */
    arrived(n: number): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    /** Replaces the answers still to come. */
    answer(...next: Answer[]) {
      script = next;
    },
    stop: () => server.stop(true),
  };
}

/** For a test file: a createReceiver whose receivers are all stopped after each test. */
export function receivers(): (...answers: Answer[]) => ReturnType<typeof createReceiver> {
  const made: (() => void)[] = [];
  afterEach(() => {
    while (made.length) made.pop()!();
  });
  return (...answers) => {
    const r = createReceiver(...answers);
    made.push(r.stop);
    return r;
  };
}
