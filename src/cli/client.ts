/**
 * The management API as the CLI sees it: one `call` that sends the bearer token and turns the
 * service's error body into a ClientError, and `stream` for the live stream (GET /v1/stream).
 */
export class ClientError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
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
    if (!res.ok) throw await errorOf(res);
    return lenientJson(await res.text()) as T;
  }

  /**
   * Opens an event stream (resuming after `lastEventId`); the response, 2xx or not. Throws
   * ClientError when Mailroom cannot be reached, or the signal's reason when it aborted.
   */
  async function stream(path: string, lastEventId: string | undefined, signal: AbortSignal): Promise<Response> {
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (target.token) headers.authorization = `Bearer ${target.token}`;
    if (lastEventId) headers["last-event-id"] = lastEventId;
    try {
      return await fetchImpl(`${base}${path}`, { headers, signal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ClientError(`cannot reach Mailroom at ${base}: ${(error as Error).message}`);
    }
  }

  /** The ClientError of a non-2xx answer: the service's message, and a hint when no token was sent. */
  async function errorOf(res: Response): Promise<ClientError> {
    const text = await res.text();
    const json = lenientJson(text);
    const message = typeof json?.message === "string" ? json.message : text.slice(0, 200) || res.statusText;
    const hint = res.status === 401 && !target.token ? " (no token: pass --token, set MAILROOM_TOKEN, or start `mailroom serve` here)" : "";
    return new ClientError(`${res.status}: ${message}${hint}`, res.status);
  }

  /** A request with the token, these headers and raw body bytes; the response whatever its status. */
  async function send(method: string, path: string, headers: Record<string, string> = {}, body?: Uint8Array): Promise<Response> {
    const all = { ...headers, ...(target.token ? { authorization: `Bearer ${target.token}` } : {}) };
    try {
      return await fetchImpl(`${base}${path}`, { method, headers: all, body });
    } catch (error) {
      throw new ClientError(`cannot reach Mailroom at ${base}: ${(error as Error).message}`);
    }
  }

  return { base, request, call, send, stream, errorOf };
}

/** The JSON of a body, or undefined when it is empty or not JSON. */
function lenientJson(text: string): any {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

export type Client = ReturnType<typeof createClient>;
