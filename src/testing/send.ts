import { PROVIDERS, signFor, unknownSigner } from "../cli/sign";

export type SendOptions = {
  /** Extra request headers (they win over the signature's). */
  headers?: Record<string, string>;
  /** Default POST. */
  method?: string;
  /**
   * Sign the body as this provider does (any of `mailroom providers`), with this secret (the
   * guard's), or `{ privateKey: PEM }` for providers that sign with a key pair.
   */
  sign?: Record<string, string | { privateKey: string }>;
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
/**
 * Sends a realistic sample event of `provider` (the events of `mailroom trigger --list`), with
 * fresh ids and times and `overrides` applied, signed when `sign` gives the guard's key.
 *
 * @example await mr.trigger("github", "push", { overrides: { ref: "refs/heads/dev" }, sign: "s3cret" })
 */
export async function triggerHook(url: string, provider: string, event: string, opts: TriggerOptions = {}): Promise<Response> {
  const { buildEvent } = await import("../triggers");
  const built = await buildEvent(provider, event, opts.overrides);
  const headers = { "content-type": built.contentType, ...built.headers, ...opts.headers };
  const sign = opts.sign === undefined ? undefined : { [provider]: opts.sign };
  return sendHook(url, opts.channel ?? provider, built.body, { headers, ...(sign ? { sign } : {}) });
}

/** `mr.trigger({ fixture })`: a fixture file (`mailroom fixtures save`) sent again, fresh ids and times. */
export type FixtureTrigger = {
  /** The fixture file's path (relative to the working directory), e.g. "fixtures/stripe-invoice-paid.json". */
  fixture: string;
  /** Dotted paths into a JSON body (or form fields) and their values. */
  overrides?: Record<string, unknown>;
  /** The guard's secret, or `{ privateKey }`; signed as the fixture's provider (or `signAs`). Unsigned when absent. */
  sign?: string | { privateKey: string };
  /** The provider to sign as, when the fixture names none or another. */
  signAs?: string;
  /** Default: the channel the hook was caught on. */
  channel?: string;
  headers?: Record<string, string>;
};

/**
 * Sends a fixture file as `mailroom trigger --fixture` does: fresh ids and times where its provider
 * puts them, `overrides` applied, signed when `sign` gives the key. Throws Error for a file that is
 * not a valid fixture (checked as the catching endpoint checks a request).
 *
 * @example await mr.trigger({ fixture: "fixtures/stripe-invoice-paid.json", overrides: { "data.object.amount_paid": 5000 }, sign: "whsec_..." })
 */
export async function triggerFixture(url: string, o: FixtureTrigger): Promise<Response> {
  const [{ readFile }, { parseFixture }, { prepareFixture }] = await Promise.all([
    import("node:fs/promises"),
    import("../fixtures/model"),
    import("../fixtures/prepare"),
  ]);
  const fixture = parseFixture(await readFile(o.fixture, "utf8"));
  const prepared = prepareFixture(fixture, o.overrides);
  const provider = o.signAs ?? fixture.provider;
  if (o.sign !== undefined && !provider) throw new Error(`trigger: ${o.fixture} names no provider: give signAs`);
  const sign = o.sign === undefined ? undefined : { [provider]: o.sign };
  return sendHook(url, o.channel ?? (fixture.channel || provider || "default"), prepared.body, {
    method: prepared.method,
    headers: { ...prepared.headers, ...o.headers },
    query: Object.fromEntries(new URLSearchParams(prepared.query)),
    ...(sign ? { sign } : {}),
  });
}

export type TriggerOptions = {
  /** Default: the provider's name. */
  channel?: string;
  /** Dotted paths into the body (or form fields) and their values. */
  overrides?: Record<string, unknown>;
  /** The guard's secret, or `{ privateKey }` for key-pair providers; unsigned when absent. */
  sign?: string | { privateKey: string };
  headers?: Record<string, string>;
};

export async function sendHook(url: string, channel: string, body: string | Uint8Array | object = "", opts: SendOptions = {}): Promise<Response> {
  const isBytes = body instanceof Uint8Array;
  const bytes = isBytes ? body : new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
  const headers: Record<string, string> = {};
  if (!isBytes && (typeof body !== "string" || /^\s*[[{]/.test(body))) headers["content-type"] = "application/json";
  for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
  const q = new URLSearchParams({ channel, ...opts.query });
  const method = opts.method ?? "POST";
  let target = `${url}/?${q}`;
  let sent = headers;
  for (const [provider, key] of Object.entries(opts.sign ?? {})) {
    if (!PROVIDERS.includes(provider)) throw new Error(`send: ${unknownSigner(provider)}`);
    if (key === undefined) continue;
    const signed = signFor(provider, typeof key === "string" ? { secret: key } : key, { url: target, method, headers: sent, body: bytes });
    sent = signed.headers;
    target = signed.url;
  }
  return fetch(target, { method, headers: sent, body: method === "GET" || method === "HEAD" ? undefined : bytes });
}
