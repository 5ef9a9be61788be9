/**
 * The calls every test makes, over any way of fetching a path: the in-process app (app.handle, in
 * test/helpers/app.ts) or a listening Mailroom (test/helpers/target.ts).
 */
export const TOKEN = "test-token-0123456789";
export const AUTH = { authorization: `Bearer ${TOKEN}` };

export type Reply = { status: number; headers: Headers; text: string; json: any };
export type FetchPath = (path: string, init?: RequestInit) => Promise<Response>;

export function httpClient(fetchPath: FetchPath) {
  /** A JSON call; `body` objects are serialised with content-type JSON; headers default to the test token. */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = AUTH): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const res = await fetchPath(path, init);
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  /** Sends one hook through the catching endpoint. */
  const post = (channel: string, body: string | Uint8Array = "{}", headers: Record<string, string> = {}, method = "POST") =>
    fetchPath(`/?channel=${channel}`, { method, body, headers });

  /** Catches `n` hooks with bodies {"n": i} into a channel, 100 at a time at once; their ids in order. */
  async function catchHooks(channel: string, n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i += 100) {
      const batch = Array.from({ length: Math.min(100, n - i) }, (_, k) => post(channel, `{"n":${i + k}}`).then((r) => r.json()));
      ids.push(...((await Promise.all(batch)) as { id: string }[]).map((r) => r.id));
    }
    return ids;
  }

  return { call, post, catchHooks, fetch: fetchPath };
}
