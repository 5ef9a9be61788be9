/**
 * The management API as the CLI sees it: one `call` that sends the bearer token and turns the
 * service's error body into a ClientError. `tail` (GET /v1/stream) belongs here as one more method.
 */
export class ClientError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = "ClientError";
  }
}

export type Target = { url: string; token?: string };

export function createClient(target: Target, fetchImpl: typeof fetch = fetch) {
  const base = target.url.replace(/\/+$/, "");

  /** A request with the token and a JSON body, or with `raw` headers and body as given (no token). */
  async function request(method: string, path: string, body?: unknown, raw?: { headers: Record<string, string>; body: Uint8Array }): Promise<Response> {
    const headers: Record<string, string> = raw ? { ...raw.headers } : {};
    if (target.token && !raw) headers.authorization = `Bearer ${target.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      return await fetchImpl(`${base}${path}`, { method, headers, body: raw ? raw.body : body === undefined ? undefined : JSON.stringify(body) });
    } catch (error) {
      throw new ClientError(`cannot reach Mailroom at ${base}: ${(error as Error).message}`);
    }
  }

  /** A JSON call; throws ClientError with the service's message on a non-2xx answer. */
  async function call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await request(method, path, body);
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const message = typeof json?.message === "string" ? json.message : text.slice(0, 200) || res.statusText;
      const hint = res.status === 401 && !target.token ? " (no token: pass --token, set MAILROOM_TOKEN, or start `mailroom serve` here)" : "";
      throw new ClientError(`${res.status}: ${message}${hint}`, res.status);
    }
    return json as T;
  }

  return { base, request, call };
}

export type Client = ReturnType<typeof createClient>;
