import { UsageError, noMore, parseFlags, required } from "../lib/args";
import type { Client } from "./client";
import type { Io } from "../lib/io";
import { bodyBytes, type WireHook } from "./show";
import { signatureAge } from "./sign";

/** Headers a client sets itself for the new connection; everything else is sent as caught. */
const NOT_REPLAYED = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade", "expect", "proxy-connection"]);
/** The tolerance GitHub-style receivers give timestamped signatures (Stripe, Standard Webhooks and Slack use five minutes). */
const TOLERANCE_S = 300;

/** `mailroom replay ID --to URL`: the stored hook's method, headers and exact body, sent to URL. */
export async function replayCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, { to: "value" });
  const id = required(p, 0, "hook id (mailroom replay ID --to URL)");
  noMore(p, 1);
  const to = p.values.to;
  if (!to) throw new UsageError("replay needs --to URL");
  if (!/^https?:\/\//.test(to)) throw new UsageError(`--to: not an http(s) URL: ${to}`);
  const hook = await client.call<WireHook>("GET", `/v1/hooks/${encodeURIComponent(id)}`);

  const headers = new Headers();
  for (const [k, v] of Object.entries(hook.headers)) if (!NOT_REPLAYED.has(k)) headers.set(k, v);
  const redacted = Object.entries(hook.headers)
    .filter(([, v]) => v === "[redacted]")
    .map(([k]) => k);
  if (redacted.length > 0) io.err(`warning: ${redacted.join(", ")} were redacted when caught (a guard's credentials) and are sent as "[redacted]"\n`);
  const age = signatureAge(hook.headers, io.now());
  if (age && age.seconds > TOLERANCE_S) {
    io.err(
      `warning: the signature's timestamp (${age.header}) is ${age.seconds} s old; receivers that check it (usually within ${TOLERANCE_S} s) will refuse it\n`,
    );
  }
  const body = bodyBytes(hook);
  let res: Response;
  try {
    res = await fetch(to, { method: hook.method, headers, body: hook.method === "GET" || hook.method === "HEAD" ? undefined : body, redirect: "manual" });
  } catch (error) {
    io.err(`mailroom: replay to ${to} failed: ${(error as Error).message}\n`);
    return 1;
  }
  const text = await res.text();
  io.out(`${hook.method} ${to} -> ${res.status}${text ? ` ${text.slice(0, 200)}` : ""}\n`);
  return res.ok ? 0 : 1;
}
