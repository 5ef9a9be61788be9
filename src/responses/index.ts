import type { Config } from "../config/schema";
import { answerDelayMs, RESERVED_HEADERS, responseProblems, type ResponseSettingValue, type ResponseStepValue } from "../config/misbehave";
import type { Clock } from "../lib/clock";
import { invalid, precondition } from "../lib/errors";
import type { Answer } from "../hooks/answer";
import type { ResponseStore } from "./store";

/**
 * Custom responses per channel: the status, headers, body and delay a sender receives once its
 * hook is stored (or instead of storing it, with `store = false`), and a `sequence` of answers
 * for the next requests. Settings come from the config file (they win: the API cannot change
 * those channels) or from PUT /v1/channels/{name}/response, stored in `channel_responses`.
 *
 * The position in a sequence is kept in memory, per channel: it starts over when the setting is
 * put again and when Mailroom starts. Each request that passed the channel's guards takes the
 * next step, in the order requests get there (a failed write still used its step).
 */
export type ResponseSource = "default" | "config" | "api";
export type ResponseView = { channel: string; source: ResponseSource; response: ResponseSettingValue; answered: number };

/** `raw`: the stored text of a setting set through the API (a reload keeps an unchanged one as it is). */
type Entry = { setting: ResponseSettingValue; source: "config" | "api"; base: Answer; steps: Answer[]; answered: number; raw?: string };

/**
 * A setting's headers without the reserved ones. Settings are checked when they are set, but one
 * stored by an older version (or by an older instance sharing PostgreSQL) may hold a header that is
 * reserved now: it is never sent.
 */
const sendable = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !RESERVED_HEADERS.has(name.toLowerCase())));

function compile(a: ResponseStepValue, base?: Answer): Answer {
  return {
    status: a.status ?? base?.status ?? 200,
    headers: a.headers ? sendable(a.headers) : (base?.headers ?? {}),
    body: a.body ?? base?.body,
    delayMs: answerDelayMs(a) ?? base?.delayMs ?? 0,
    store: a.store ?? base?.store ?? true,
  };
}

/** The stored settings join the config file's in `load()`, which start-up awaits before the first request. */
export function createResponses(deps: { config: Config; store: ResponseStore; clock: Clock }) {
  const { config, clock, store } = deps;
  const entries = new Map<string, Entry>();
  const entry = (setting: ResponseSettingValue, source: "config" | "api"): Entry => {
    const base = compile(setting);
    return { setting, source, base, steps: (setting.sequence ?? []).map((s) => compile(s, base)), answered: 0 };
  };
  const configured = new Set<string>();
  for (const c of config.channels) {
    if (!c.response) continue;
    configured.add(c.name);
    entries.set(c.name, entry(c.response, "config"));
  }

  /** Start-up: the stored settings (a config file's setting of the same channel wins). Rejects with the database's error. */
  /** Reads the stored settings (at start-up, and again when another instance changed them). */
  async function load(): Promise<void> {
    const rows = (await store.list()).filter((r) => !configured.has(r.channel));
    const now = new Set(rows.map((r) => r.channel));
    for (const [channel, e] of entries) if (e.source === "api" && !now.has(channel)) entries.delete(channel);
    for (const row of rows) {
      // A setting unchanged keeps its place in a sequence.
      if (entries.get(row.channel)?.raw === row.setting) continue;
      entries.set(row.channel, { ...entry(JSON.parse(row.setting), "api"), raw: row.setting });
    }
  }

  function requireNotConfigured(name: string): void {
    if (configured.has(name)) throw precondition(`the response of channel "${name}" is set in the config file; change it there`);
  }

  /** The effective setting of a channel (the default one when none is set). */
  function get(channel: string): ResponseView {
    const e = entries.get(channel);
    if (!e) return { channel, source: "default", response: {}, answered: 0 };
    return { channel, source: e.source, response: e.setting, answered: e.answered };
  }

  return {
    load,
    get,
    /** Hot path: the answer for this request (and the step it used), or undefined for the default one. */
    next(channel: string): Answer | undefined {
      const e = entries.get(channel);
      if (!e) return undefined;
      const step = e.answered < e.steps.length ? e.steps[e.answered]! : e.base;
      e.answered++;
      return step;
    },

    /** Sets and stores a channel's response; its sequence starts over. Throws invalid_argument, failed_precondition. */
    async put(channel: string, setting: ResponseSettingValue): Promise<ResponseView> {
      requireNotConfigured(channel);
      const problems = responseProblems(setting, "response");
      if (problems.length > 0)
        throw invalid(`invalid body: ${problems.map((p) => `${p.path.replace(/^response\.?/, "") || "response"}: ${p.message}`).join("; ")}`);
      const raw = JSON.stringify(setting);
      await store.save(channel, raw, clock.now());
      entries.set(channel, { ...entry(setting, "api"), raw });
      return get(channel);
    },

    /** Back to the default answer. Throws failed_precondition for a channel of the config file. */
    async delete(channel: string): Promise<ResponseView> {
      requireNotConfigured(channel);
      await store.remove(channel);
      entries.delete(channel);
      return get(channel);
    },

    /** When a channel is deleted: an API setting goes with it; a config one starts its sequence over. */
    async forget(channel: string): Promise<void> {
      if (configured.has(channel)) {
        const e = entries.get(channel);
        if (e) e.answered = 0;
        return;
      }
      await store.remove(channel);
      entries.delete(channel);
    },
  };
}

export type Responses = ReturnType<typeof createResponses>;
