import { readFileSync } from "node:fs";
import { UsageError, noMore, parseFlags, required } from "./args";
import type { Client } from "./client";
import type { Io } from "./io";
import { PROVIDERS, signHeaders, type Provider } from "./sign";

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

/** `mailroom send CHANNEL [--data @file|-|TEXT] [--sign PROVIDER --secret S] [--header K:V]... [--method M]` */
export async function sendCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, { data: "value", sign: "value", secret: "value", header: "multi", method: "value" });
  const channel = required(p, 0, "channel (mailroom send CHANNEL)");
  noMore(p, 1);
  const provider = p.values.sign as Provider | undefined;
  if (provider !== undefined && !PROVIDERS.includes(provider)) throw new UsageError(`--sign: one of ${PROVIDERS.join(", ")}`);
  const secret = p.values.secret ?? (provider ? io.env.MAILROOM_SIGN_SECRET : undefined);
  if (provider && !secret) throw new UsageError(`--sign ${provider} needs --secret S (or $MAILROOM_SIGN_SECRET)`);
  if (!provider && p.values.secret !== undefined) throw new UsageError("--secret is only used with --sign");

  const body = await readData(p.values.data, io);
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "mailroom-send" };
  for (const h of p.multi.header ?? []) {
    const [k, v] = parseHeader(h);
    headers[k] = v;
  }
  if (provider) {
    try {
      Object.assign(headers, signHeaders(provider, secret!, body, io.now()));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const res = await client.request(p.values.method ?? "POST", `/?channel=${encodeURIComponent(channel)}`, undefined, { headers, body });
  const text = await res.text();
  io.out(`${res.status} ${text}\n`);
  return res.ok ? 0 : 1;
}
