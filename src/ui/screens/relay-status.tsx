/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";

type Relays = {
  upstream: {
    handler: string;
    channel: string;
    connected: boolean;
    listener: { host: string; started_at: string } | null;
    waiting: number;
    lag_seconds: number;
  }[];
  listening: { url: string; channel: string; connected: boolean; caught_up: boolean; last_error: string | null; received: number; waiting: number }[];
};

/** How often the relay lines are read again (they change with connections, not with hooks). */
const REFRESH_MS = 5_000;

/**
 * One status line per relay: upstream, each relay key's listener and what waits for it; on the
 * laptop, each upstream channel received here (connected, caught up, or why not). Nothing when
 * there is no relay.
 */
export function RelayStatus() {
  const [relays, setRelays] = useState<Relays | null>(null);
  useEffect(() => {
    const read = () => api<Relays>("GET", "/relays").then(setRelays, () => undefined);
    void read();
    const timer = setInterval(read, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  if (!relays || relays.upstream.length + relays.listening.length === 0) return null;
  return (
    <ul class="muted" aria-label="Relays">
      {relays.upstream.map((r) => (
        <li key={r.handler}>
          Relay <code>{r.handler}</code>:{" "}
          {r.connected && r.listener ? `listener ${r.listener.host} connected (since ${r.listener.started_at})` : "no listener connected"}, {r.waiting} waiting
          {r.waiting > 0 ? ` (oldest ${Math.round(r.lag_seconds)} s)` : ""}
        </li>
      ))}
      {relays.listening.map((l) => (
        <li key={`${l.url} ${l.channel}`}>
          Receiving <code>{l.channel}</code> from {l.url}:{" "}
          {l.connected
            ? l.caught_up
              ? "connected, caught up"
              : `connected, catching up (${l.waiting} waiting)`
            : `not connected${l.last_error ? ` (${l.last_error})` : ""}`}
          , {l.received} received
        </li>
      ))}
    </ul>
  );
}
