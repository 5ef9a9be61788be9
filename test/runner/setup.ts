import { createTestApp } from "../helpers/app";

/** A handler entry of the config, with short defaults for tests. */
export const forward = (name: string, url: string, extra: Record<string, unknown> = {}) => ({
  name,
  kind: "forward",
  url,
  backoff: { initial: "1s", max: "10s" },
  ...extra,
});

/**
 * A Mailroom whose channels have the given handlers; the backoff jitter is pinned to the middle
 * (random = 0.5) unless told. `send` catches a hook through the real endpoint and returns its id.
 */
export function createRunnerApp(
  raw: { handlers: unknown[]; channels: unknown[] },
  opts: { dbPath?: string; random?: () => number; env?: Record<string, string> } = {},
) {
  const t = createTestApp(raw, { random: () => 0.5, ...opts });
  async function send(channel: string, body: string | Uint8Array = '{"n":1}', headers: Record<string, string> = {}) {
    const res = await t.app.handle(
      new Request(`http://localhost/?channel=${channel}`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", ...headers },
      }),
    );
    if (res.status !== 200) throw new Error(`catching answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  }
  const hook = async (id: string) => (await t.call("GET", `/v1/hooks/${id}`)).json;
  const attempts = async (id: string) => (await t.call("GET", `/v1/hooks/${id}/attempts`)).json as any[];
  /** Milliseconds from now until the hook's queued attempt of `handler` is due. */
  const dueIn = async (id: string, handler: string) => {
    const queued = (await attempts(id)).filter((a) => a.handler === handler && a.outcome === "queued");
    if (queued.length !== 1) throw new Error(`expected one queued attempt of ${handler}, found ${queued.length}`);
    return Date.parse(queued[0].due_at) - t.clock.now();
  };
  return { ...t, send, hook, attempts, dueIn };
}
