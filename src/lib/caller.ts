import { AsyncLocalStorage } from "node:async_hooks";
import { notFound } from "./errors";

/**
 * Who a request acts for, as far as the stores need to know it: the channels a limited caller (a
 * dashboard user with `channels`, an API key scoped to channels) may see, as glob patterns
 * (`stripe-*`); undefined for a caller who sees everything. The app runs each request inside a
 * scope (withCaller); signing in limits it (limitCaller); the stores' reads filter by it
 * (db/caller-filter.ts), so every route that lists, counts, searches or opens hooks sees only the
 * caller's channels without knowing it. Work a request starts (a bulk job) keeps its scope.
 */
export type CallerScope = { channels?: readonly string[]; actor?: string };

const scopes = new AsyncLocalStorage<CallerScope>();

/** Runs `fn` (one request) in a scope of its own, unlimited until a sign-in limits it. */
export function withCaller<T>(fn: () => T): T {
  return scopes.run({}, fn);
}

/** A route of one channel, /v1/channels/{name}/... or /ui/api/channels/{name}/...: group 1 is the name. */
const CHANNEL_ROUTE = /^\/(?:v1|ui\/api)\/channels\/([^/?]+)/;

/**
 * Limits the current request to `channels` (patterns); outside a request, nothing happens. A
 * route of a channel the caller may not see (`path`: its settings, response, dedup, handlers)
 * answers not_found, as the stores do for its hooks. `actor`: who it is (their bulk jobs are the
 * only ones they see).
 */
export function limitCaller(channels: readonly string[] | undefined, path?: string, actor?: string): void {
  const scope = scopes.getStore();
  if (!scope || !channels) return;
  scope.channels = channels;
  scope.actor = actor;
  const name = path === undefined ? undefined : CHANNEL_ROUTE.exec(path)?.[1];
  if (name === undefined) return;
  let decoded: string;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    throw notFound(`channel "${name}" not found`); // a malformed escape names no channel
  }
  if (!channelMatches(channels, decoded)) throw notFound(`channel "${name}" not found`);
}

/** Who a limited caller is (events' actor: an e-mail, "api:<label>"); undefined when unlimited. */
export function limitedActor(): string | undefined {
  const scope = scopes.getStore();
  return scope?.channels ? scope.actor : undefined;
}

/** The current caller's channel patterns, undefined when unlimited (or outside any request). */
export function callerChannels(): readonly string[] | undefined {
  return scopes.getStore()?.channels;
}

/** Runs `fn` with the scope of `channels` (a stream keeps its caller's limits for its whole life). */
export function asCaller<T>(channels: readonly string[] | undefined, fn: () => T): T {
  return scopes.run(channels ? { channels } : {}, fn);
}

const compiled = new Map<string, RegExp>();

/**
 * Whether `channel` matches a pattern: a channel name where `*` stands for any run of characters
 * (the config's glob patterns).
 *
 * @example channelMatches(["stripe-*"], "stripe-live") // true
 */
export function channelMatches(patterns: readonly string[], channel: string): boolean {
  for (const p of patterns) {
    let re = compiled.get(p);
    if (!re) {
      re = new RegExp(
        `^${p
          .split("*")
          .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
      );
      if (compiled.size < 10_000) compiled.set(p, re);
    }
    if (re.test(channel)) return true;
  }
  return false;
}

/** Whether the current caller may see `channel`. */
export function callerSees(channel: string): boolean {
  const limit = callerChannels();
  return !limit || channelMatches(limit, channel);
}
