import { readFileSync } from "node:fs";
import { UsageError, noMore, parseFlags, required } from "../lib/args";
import type { Client } from "./client";
import type { Io } from "../lib/io";
import { PROVIDERS, signFor, unknownSigner } from "./sign";

const DEFAULT_BODY = '{"test":true,"sent_by":"mailroom send"}';

/** `K:V` -> [k, V]; throws UsageError without a colon or a name. */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new UsageError(`--header: expected NAME:VALUE, got ${text}`);
  return [text.slice(0, colon).trim().toLowerCase(), text.slice(colon + 1).trim()];
}

/** `--data @file`, `--data -` (stdin) or the text itself. */
async function readData(value: string | undefined, io: Io): Promise<Uint8Array> {
  if (value === undefined) return new TextEncoder().encode(DEFAULT_BODY);
  if (value === "-") return io.stdin();
  if (value.startsWith("@")) {
    try {
      return new Uint8Array(readFileSync(value.slice(1)));
    } catch (error) {
      throw new UsageError(`--data: cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  return new TextEncoder().encode(value);
}

/** `--private-key @FILE` or the PEM text itself. */
export function readKey(value: string): string {
  if (!value.startsWith("@")) return value;
  try {
    return readFileSync(value.slice(1), "utf8");
  } catch (error) {
    throw new UsageError(`--private-key: cannot read ${value.slice(1)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * `mailroom send CHANNEL [--data @file|-|TEXT] [--sign PROVIDER (--secret S | --private-key @PEM)]
 * [--header K:V]... [--method M]`. The headers given win over the signer's, and are signed as given.
 */
export async function sendCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, { data: "value", sign: "value", secret: "value", "private-key": "value", header: "multi", method: "value" });
  const channel = required(p, 0, "channel (mailroom send CHANNEL)");
  noMore(p, 1);
  const provider = p.values.sign;
  if (provider !== undefined && !PROVIDERS.includes(provider)) throw new UsageError(`--sign: ${unknownSigner(provider)}`);
  const secret = p.values.secret ?? (provider ? io.env.MAILROOM_SIGN_SECRET : undefined);
  const privateKey = p.values["private-key"] === undefined ? undefined : readKey(p.values["private-key"]);
  if (provider && !secret && !privateKey)
    throw new UsageError(`--sign ${provider} needs --secret S (or $MAILROOM_SIGN_SECRET), or --private-key @FILE for a provider that signs with a key pair`);
  if (!provider && (p.values.secret !== undefined || privateKey !== undefined)) throw new UsageError("--secret and --private-key are only used with --sign");

  const body = await readData(p.values.data, io);
  let headers: Record<string, string> = { "content-type": "application/json", "user-agent": "mailroom-send" };
  for (const h of p.multi.header ?? []) {
    const [k, v] = parseHeader(h);
    headers[k] = v;
  }
  const method = p.values.method ?? "POST";
  let path = `/?channel=${encodeURIComponent(channel)}`;
  if (provider) {
    try {
      const signed = signFor(provider, { secret, privateKey }, { url: `${client.base}${path}`, method, headers, body }, io.now());
      headers = signed.headers;
      path = signed.url.slice(client.base.length);
    } catch (error) {
      throw new UsageError(`--sign ${provider}: ${(error as Error).message}`);
    }
  }
  const res = await client.request(method, path, undefined, { headers, body });
  const text = await res.text();
  io.out(`${res.status} ${text}\n`);
  return res.ok ? 0 : 1;
}
