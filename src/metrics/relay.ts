import type { ListenState } from "../relay/client";
import type { RelayState } from "../relay/hub";
import type { createRegistry } from "./registry";

/** What the relay gauges show: upstream's relays (this instance's counts) and this Mailroom's own listens. */
export type RelaySnapshot = { upstream: RelayState[]; listening: ListenState[] };

/**
 * The relay's metrics on both sides. Upstream, per relay ("relay:<key>:<channel>"): connected,
 * waiting (attempts queued for the listener), lag (age of the oldest waiting hook), delivered
 * (hooks sent) and acknowledged (committed by the laptop). On the laptop, per upstream channel:
 * connected, waiting and lag (what upstream holds for it and the oldest's age, as upstream last
 * said; not connected, the time since the connection was lost), received and acknowledged.
 */
export function registerRelayGauges(registry: ReturnType<typeof createRegistry>, read: () => RelaySnapshot): void {
  const up = (f: (r: RelayState) => number) => () => read().upstream.map((r) => [[r.handler], f(r)] as const);
  const down = (f: (l: ListenState) => number) => () => read().listening.map((l) => [[l.url, l.channel], f(l)] as const);
  registry.gauge(
    "mailroom_relay_connected",
    "1 while the relay's listener is connected (to any instance)",
    ["relay"],
    up((r) => Number(r.connected)),
  );
  registry.gauge(
    "mailroom_relay_waiting",
    "hooks waiting for the relay's listener (queued or in flight)",
    ["relay"],
    up((r) => r.waiting),
  );
  registry.gauge(
    "mailroom_relay_lag_seconds",
    "age of the oldest hook waiting for the relay's listener",
    ["relay"],
    up((r) => r.lag_seconds),
  );
  registry.gauge(
    "mailroom_relay_delivered_total",
    "hooks sent to the relay's listener by this instance",
    ["relay"],
    up((r) => r.delivered),
    "counter",
  );
  registry.gauge(
    "mailroom_relay_acknowledged_total",
    "hooks the listener acknowledged (committed to its store)",
    ["relay"],
    up((r) => r.acknowledged),
    "counter",
  );
  const labels = ["upstream", "channel"];
  registry.gauge(
    "mailroom_listen_connected",
    "1 while this Mailroom is connected to the upstream relay",
    labels,
    down((l) => Number(l.connected)),
  );
  registry.gauge(
    "mailroom_listen_waiting",
    "hooks upstream holds for this Mailroom, queued or not acknowledged yet, as upstream last said (while not connected, as of the last connection)",
    labels,
    down((l) => l.waiting),
  );
  registry.gauge(
    "mailroom_listen_received_total",
    "hooks received from upstream (a repeat counts again)",
    labels,
    down((l) => l.received),
    "counter",
  );
  registry.gauge(
    "mailroom_listen_acknowledged_total",
    "hooks acknowledged to upstream once committed here",
    labels,
    down((l) => l.acknowledged),
    "counter",
  );
  registry.gauge(
    "mailroom_listen_lag_seconds",
    "age of the oldest hook upstream holds for this Mailroom (0 when none), as upstream last said plus the time since; while not connected, the time since the connection was lost",
    labels,
    down((l) => l.lag_seconds),
  );
}
