import { PROVIDERS, signHeaders, type Provider } from "../cli/sign";

export type SendOptions = {
  /** Extra request headers (they win over the signature's). */
  headers?: Record<string, string>;
  /** Default POST. */
  method?: string;
  /** Sign the body as this provider does, with this secret (the guard's). */
  sign?: Partial<Record<Provider, string>>;
  /** Appended to the catching URL, e.g. { ref: "main" } for `?channel=c&ref=main`. */
  query?: Record<string, string>;
};

/**
 * Sends a request to the catching endpoint `/?channel=NAME` as a provider would, signed with the
 * secret of `sign` (the signers of `mailroom send`), and returns the response as is.
 * A JSON-looking string or object body gets `content-type: application/json` unless a header says otherwise.
 *
 * @example await mr.send(channel, { action: "opened" }, { sign: { github: "s3cret" } })
 */
export async function sendHook(url: string, channel: string, body: string | Uint8Array | object = "", opts: SendOptions = {}): Promise<Response> {
  const isBytes = body instanceof Uint8Array;
  const bytes = isBytes ? body : new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
  const headers: Record<string, string> = {};
  if (!isBytes && (typeof body !== "string" || /^\s*[[{]/.test(body))) headers["content-type"] = "application/json";
  for (const [provider, secret] of Object.entries(opts.sign ?? {})) {
    if (!PROVIDERS.includes(provider as Provider)) throw new Error(`send: unknown provider ${provider}; one of ${PROVIDERS.join(", ")}`);
    if (secret !== undefined) Object.assign(headers, signHeaders(provider as Provider, secret, bytes));
  }
  for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
  const q = new URLSearchParams({ channel, ...opts.query });
  const method = opts.method ?? "POST";
  return fetch(`${url}/?${q}`, { method, headers, body: method === "GET" || method === "HEAD" ? undefined : bytes });
}
