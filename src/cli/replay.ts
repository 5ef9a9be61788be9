import { UsageError, noMore, parseFlags, required } from "../lib/args";
import type { Client } from "./client";
import type { Io } from "../lib/io";
import { bodyBytes, type WireHook } from "./show";
import { signatureAge } from "./sign";
import { keyOf, type ResignSettings, resignKeyProblem, resignProblem, resignRequest } from "../delivery/resign";
import type { Outgoing } from "../runner/handlers";
import { readKey } from "./send";

/** `--resign KIND --secret S` (or $MAILROOM_SIGN_SECRET, or `--private-key @PEM`): what to sign with; throws UsageError. */
function resignFlags(values: Record<string, string | undefined>, io: Io): ResignSettings | undefined {
  const kind = values.resign;
  const pem = values["private-key"];
  if (kind === undefined) {
    if (values.secret !== undefined || pem !== undefined) throw new UsageError("--secret and --private-key are only used with --resign KIND");
    return undefined;
  }
  const problem = resignProblem(kind);
  if (problem) throw new UsageError(`--resign: ${problem}`);
  if (keyOf(kind) === "private_key") {
    if (pem === undefined) throw new UsageError(`--resign ${kind} signs with a private key: give --private-key @FILE`);
    return checkedKey({ kind, private_key: readKey(pem) });
  }
  const secret = values.secret ?? io.env.MAILROOM_SIGN_SECRET;
  if (!secret) throw new UsageError(`--resign ${kind} needs --secret S (or $MAILROOM_SIGN_SECRET)`);
  return checkedKey({ kind, secret });
}

/** The settings, or UsageError when the signer cannot parse their key (it could never sign). */
function checkedKey(settings: ResignSettings): ResignSettings {
  const bad = resignKeyProblem(settings);
  if (bad) throw new UsageError(`--${bad.key === "secret" ? "secret" : "private-key"}: ${bad.message}`);
  return settings;
}

/** Headers a client sets itself for the new connection; everything else is sent as caught. */
const NOT_REPLAYED = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "upgrade", "expect", "proxy-connection"]);
/** The tolerance GitHub-style receivers give timestamped signatures (Stripe, Standard Webhooks and Slack use five minutes). */
const TOLERANCE_S = 300;

/**
 * `mailroom replay ID --to URL [--resign KIND (--secret S | --private-key @PEM)]`: the stored hook's
 * method, headers and exact body, sent to URL; with --resign, signed as KIND with a fresh timestamp
 * and delivery ids instead of the caught signature (delivery/resign.ts).
 */
export async function replayCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, { to: "value", resign: "value", secret: "value", "private-key": "value" });
  const id = required(p, 0, "hook id (mailroom replay ID --to URL)");
  noMore(p, 1);
  const to = p.values.to;
  if (!to) throw new UsageError("replay needs --to URL");
  if (!/^https?:\/\//.test(to)) throw new UsageError(`--to: not an http(s) URL: ${to}`);
  const resign = resignFlags(p.values, io);
  const hook = await client.call<WireHook>("GET", `/v1/hooks/${encodeURIComponent(id)}`);

  const headers = new Headers();
  for (const [k, v] of Object.entries(hook.headers)) if (!NOT_REPLAYED.has(k)) headers.set(k, v);
  const redacted = Object.entries(hook.headers)
    .filter(([, v]) => v === "[redacted]")
    .map(([k]) => k);
  if (redacted.length > 0) io.err(`warning: ${redacted.join(", ")} were redacted when caught (a guard's credentials) and are sent as "[redacted]"\n`);
  const age = resign ? undefined : signatureAge(hook.headers, io.now());
  if (age && age.seconds > TOLERANCE_S) {
    io.err(
      `warning: the signature's timestamp (${age.header}) is ${age.seconds} s old; receivers that check it (usually within ${TOLERANCE_S} s) will refuse it\n`,
    );
  }
  const body = bodyBytes(hook);
  const bodyless = hook.method === "GET" || hook.method === "HEAD";
  let request: Outgoing = { url: to, method: hook.method, headers, body: bodyless ? undefined : body };
  if (resign) {
    try {
      // Fresh delivery ids for each replay: the receiver sees a new delivery, as a provider's redelivery.
      request = resignRequest(request, resign, io.now(), `${hook.id}\0replay\0${io.now()}\0${crypto.randomUUID()}`);
    } catch (error) {
      throw new UsageError(`--resign: ${(error as Error).message}`);
    }
  }
  let res: Response;
  try {
    res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: "manual" });
  } catch (error) {
    io.err(`mailroom: replay to ${to} failed: ${(error as Error).message}\n`);
    return 1;
  }
  const text = await res.text();
  io.out(`${hook.method} ${to} -> ${res.status}${text ? ` ${text.slice(0, 200)}` : ""}\n`);
  return res.ok ? 0 : 1;
}
