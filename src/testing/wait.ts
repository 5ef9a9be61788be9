import { readEvents } from "../lib/sse";
import type { ManagementClient } from "./management";
import type { HookExtended as Hook, HookStatus } from "./types";

export type WaitForHook = {
  /** Only hooks of this channel (default: any channel). */
  channel?: string;
  /** Only hooks with this status (default: any); a hook that reaches it later counts when it does. */
  status?: HookStatus;
  /** Only hooks this returns true for. */
  where?: (hook: Hook) => boolean;
  /** Milliseconds (default 5000). */
  timeout?: number;
};

/** The error of a waitForHook that ran out of time; its message lists what arrived and what was refused. */
export class WaitForHookTimeout extends Error {
  constructor(
    message: string,
    readonly arrived: Hook[],
    readonly refused: { guard: string; status: number; reason: string }[],
  ) {
    super(message);
    this.name = "WaitForHookTimeout";
  }
}

const matches = (h: Hook, o: WaitForHook) => (!o.channel || h.channel === o.channel) && (!o.status || h.status === o.status) && (!o.where || o.where(h));

/**
 * Resolves with the first hook that matches, already stored or arriving later. Listens on the
 * live stream (GET /v1/stream) opened before the stored hooks are read, so nothing falls between
 * the two; no polling. On timeout it rejects with WaitForHookTimeout listing the hooks of the
 * channel and the requests its guards refused, with their reasons (GET /v1/refusals).
 */
export async function waitForHook(url: string, token: string, api: ManagementClient, o: WaitForHook): Promise<Hook> {
  const timeout = o.timeout ?? 5_000;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeout);
  try {
    const q = new URLSearchParams();
    if (o.channel) q.set("channel", o.channel);
    if (o.status) q.set("status", o.status);
    const res = await fetch(`${url}/v1/stream?${q}`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" }, signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`waitForHook: GET /v1/stream answered ${res.status}: ${await res.text()}`);
    try {
      // With the extension fields, as the stream sends them: `where` sees the same fields either way.
      const stored = await api.hooks.list({ channel: o.channel, status: o.status, limit: 100, include: "extensions" });
      const found = stored.reverse().find((h) => matches(h, o));
      if (found) return found;
      for await (const event of readEvents(res.body)) {
        if (event.event !== "hook") continue;
        const hook = JSON.parse(event.data) as Hook;
        if (matches(hook, o)) return hook;
      }
      throw new Error("waitForHook: the live stream ended (the server is stopping)");
    } finally {
      await res.body.cancel().catch(() => {});
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
    throw await timeoutError(api, o, timeout);
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

const excerpt = (h: Hook) => {
  const text = h.payload ? JSON.stringify(h.payload) : Buffer.from(h.body, "base64").toString("utf8");
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

async function timeoutError(api: ManagementClient, o: WaitForHook, timeout: number): Promise<WaitForHookTimeout> {
  const where = o.channel ? `channel "${o.channel}"` : "any channel";
  const wanted = [o.status && `status ${o.status}`, o.where && "the where condition"].filter(Boolean).join(" and ");
  const [arrived, refused] = await Promise.all([
    api.hooks.list({ channel: o.channel, limit: 20, include: "extensions" }).catch(() => [] as Hook[]),
    api.refusals({ channel: o.channel, limit: 20 }).catch(() => []),
  ]);
  const lines = [`waitForHook: no hook in ${where}${wanted ? ` with ${wanted}` : ""} within ${timeout} ms.`];
  lines.push(arrived.length ? `Arrived in ${where} (${arrived.length}, newest first):` : `Nothing arrived in ${where}.`);
  for (const h of arrived) lines.push(`  ${h.id} ${h.status} ${h.method} ${h.channel} ${h.content_type || "-"} ${excerpt(h)}`);
  lines.push(refused.length ? `Refused by guards (${refused.length}, newest first):` : "Nothing was refused by a guard.");
  for (const r of refused) lines.push(`  ${r.created_at} ${r.method} ${r.channel}: guard ${r.guard} answered ${r.status}: ${r.reason}`);
  return new WaitForHookTimeout(lines.join("\n"), arrived, refused);
}
