/** What the dashboards and metrics read of the relays, and the error a second listener gets. */
import type { Clock } from "../lib/clock";
import type { Runner } from "../runner";
import { HEARTBEAT_MS } from "./protocol";
import type { RelayListener, RelayStore } from "./store";

/** What the dashboards and metrics show of each relay. */
export type RelayState = {
  handler: string;
  label: string;
  channel: string;
  /** Connected to any instance sharing the database. */
  connected: boolean;
  listener: { host: string; started_at: string; connected_at: string } | null;
  waiting: number;
  lag_seconds: number;
  delivered: number;
  acknowledged: number;
};

/** Hooks this instance sent to a relay's listener, and those it acknowledged. */
export type RelayCounts = { delivered: number; acknowledged: number };

/** Every relay of the keys, with its listener (on any instance, if its heartbeats are fresh) and what waits for it. */
export async function relayStates(deps: {
  store: RelayStore;
  runner: Pick<Runner, "backlog">;
  clock: Clock;
  relays: ReadonlyMap<string, { label: string; channel: string }>;
  countOf: (handler: string) => RelayCounts;
}): Promise<RelayState[]> {
  const { store, runner, clock, relays, countOf } = deps;
  const listeners = new Map((await store.list()).map((l) => [l.handler, l]));
  const now = clock.now();
  const out: RelayState[] = [];
  for (const [handler, r] of relays) {
    const l = listeners.get(handler);
    const connected = l !== undefined && l.seenAt >= now - 3 * HEARTBEAT_MS;
    const { count, oldest } = await runner.backlog(handler);
    const c = countOf(handler);
    out.push({
      handler,
      label: r.label,
      channel: r.channel,
      connected,
      listener: connected ? { host: l!.host, started_at: iso(l!.startedAt), connected_at: iso(l!.connectedAt) } : null,
      waiting: count,
      lag_seconds: lagSeconds(oldest, now),
      delivered: c.delivered,
      acknowledged: c.acknowledged,
    });
  }
  return out;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A relay's lag: seconds since its oldest waiting delivery was due (its hook caught, or its retry due), 0 when none waits. */
export const lagSeconds = (oldest: number | null, now: number) => (oldest === null ? 0 : Math.max(0, (now - oldest) / 1000));

/** The clear error a second listener gets: who listens already, and since when. */
export function busyMessage(channel: string, holder: RelayListener): string {
  return `channel "${channel}" is relayed to another listener already: ${holder.host}, listening since ${iso(holder.startedAt)}; stop it first (one listener per key and channel)`;
}
