/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, query, type Refusal } from "../api";
import { useStream } from "../live";

/** What guards refused, newest first; each new refusal arrives at the top as the stream's `refusal` event. */
export function Refusals({ url }: { url: URL }) {
  const channel = url.searchParams.get("channel") ?? undefined;
  const guard = url.searchParams.get("guard") ?? undefined;
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [error, setError] = useState("");
  const load = () => api<Refusal[]>("GET", `/refusals${query({ channel, guard })}`).then(setRefusals, (e) => setError(e.message));
  useEffect(() => void load(), [channel, guard]);
  useStream(query({ channel }), {
    refusal: (r) => {
      const refusal = r as Refusal;
      if (!guard || refusal.guard === guard) setRefusals((all) => [refusal, ...all].slice(0, 50));
    },
    reset: load,
  }, [channel, guard]);
  return (
    <section>
      <h1>Refusals</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <table aria-label="Refusals">
        <thead><tr><th>When</th><th>Channel</th><th>Guard</th><th>Status</th><th>Reason</th><th>Method</th><th>Ip</th></tr></thead>
        <tbody>{refusals.map((r, i) => <tr key={i}><td>{r.created_at}</td><td>{r.channel}</td><td>{r.guard}</td><td>{r.status}</td><td>{r.reason}</td><td>{r.method}</td><td>{r.ip}</td></tr>)}</tbody>
      </table>
      {refusals.length === 0 && <p class="muted">No guard refused anything.</p>}
    </section>
  );
}
