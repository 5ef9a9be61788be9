import { createPublicKey, type KeyObject, X509Certificate } from "node:crypto";

/** How the fetcher reaches the network: the global fetch, or a stand-in in tests. */
export type Fetch = (url: string, init: { signal: AbortSignal; redirect: "error" }) => Promise<Response>;

/**
 * Fetches providers' signing certificates (SNS, PayPal) and keeps them in memory by URL. It never
 * judges a URL: the guard asks it only for URLs on its provider's documented hosts. A fetch that
 * fails, times out or is larger than `maxBytes` is not cached, so the next message tries again.
 */
export type CertificateFetcher = {
  /** The certificate's public key; rejects with a reason a refusal can show. */
  key(url: string): Promise<KeyObject>;
  /** The same fetch without parsing: SNS's SubscribeURL, whose answer is not kept. */
  get(url: string): Promise<number>;
};

/**
 * `perMinute` bounds the certificates fetched (cache misses) in any minute, so that messages naming
 * ever new URLs on a provider's hosts cannot make Mailroom send requests without end.
 */
export type FetcherOptions = { fetch?: Fetch; timeoutMs?: number; maxBytes?: number; maxEntries?: number; perMinute?: number; now?: () => number };

/** Reads at most `max` bytes of a response's body; rejects when there are more. */
async function readLimited(response: Response, max: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new Error(`larger than ${max} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function createCertificateFetcher(options: FetcherOptions = {}): CertificateFetcher {
  const fetch: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxBytes = options.maxBytes ?? 64 * 1024;
  const maxEntries = options.maxEntries ?? 64;
  const cache = new Map<string, Promise<KeyObject>>();
  const perMinute = options.perMinute ?? 20;
  const now = options.now ?? Date.now;
  let recent: number[] = [];

  async function download(url: string): Promise<Uint8Array> {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    if (!response.ok) throw new Error(`answered ${response.status}`);
    return readLimited(response, maxBytes);
  }

  async function load(url: string): Promise<KeyObject> {
    const pem = Buffer.from(await download(url)).toString("utf8");
    try {
      return new X509Certificate(pem).publicKey;
    } catch {
      return createPublicKey(pem);
    }
  }

  return {
    key(url) {
      const cached = cache.get(url);
      if (cached) return cached;
      const at = now();
      recent = recent.filter((t) => at - t < 60_000);
      if (recent.length >= perMinute) return Promise.reject(new Error(`the certificate was not fetched: ${perMinute} were fetched in the last minute`));
      recent.push(at);
      if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
      const loading = load(url).catch((error: unknown) => {
        cache.delete(url);
        throw new Error(`the certificate could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
      });
      cache.set(url, loading);
      return loading;
    },
    async get(url) {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
      await readLimited(response, maxBytes).catch(() => undefined);
      return response.status;
    },
  };
}

let shared: CertificateFetcher | undefined;
/** The process's fetcher (one cache for every guard), made on first use. */
export const defaultFetcher = (): CertificateFetcher => (shared ??= createCertificateFetcher());

/** A configured certificate or public key in PEM; throws when it does not parse. */
export function configuredKey(pem: string): KeyObject {
  const text = pem.replace(/\\n/g, "\n");
  try {
    return new X509Certificate(text).publicKey;
  } catch {
    return createPublicKey(text);
  }
}
