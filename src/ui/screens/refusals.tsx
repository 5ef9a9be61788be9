/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, query, type Refusal } from "../api";
import { useStream } from "../live";
import { Time } from "../parts/time";

/** What guards refused, newest first; each new refusal arrives at the top as the stream's `refusal` event. */
export function Refusals({ url }: { url: URL }) {
  const channel = url.searchParams.get("channel") ?? undefined;
  const guard = url.searchParams.get("guard") ?? undefined;
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [error, setError] = useState("");
  // Refusals that came on the stream after a read was asked for stay on top of its answer, which may
  // arrive later and would otherwise hide them.
  const arrived = useRef<Refusal[]>([]);
  const load = () => {
    arrived.current = [];
    return api<Refusal[]>("GET", `/refusals${query({ channel, guard })}`).then(
      (page) => {
        const fresh = arrived.current.filter(
          (r) => !page.some((p) => p.created_at === r.created_at && p.guard === r.guard && p.channel === r.channel && p.ip === r.ip),
        );
        setRefusals([...fresh, ...page].slice(0, 50));
      },
      (e) => setError(e.message),
    );
  };
  useEffect(() => void load(), [channel, guard]);
  useStream(
    query({ channel }),
    {
      refusal: (r) => {
        const refusal = r as Refusal;
        if (guard && refusal.guard !== guard) return;
        arrived.current = [refusal, ...arrived.current].slice(0, 50);
        setRefusals((all) => [refusal, ...all].slice(0, 50));
      },
      reset: load,
    },
    [channel, guard],
  );
  return (
    <section>
      <h1>Refusals</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="scroll">
        <table aria-label="Refusals">
          <thead>
            <tr>
              <th>When</th>
              <th>Channel</th>
              <th>Guard</th>
              <th>Status</th>
              <th>Reason</th>
              <th>Method</th>
              <th>Ip</th>
            </tr>
          </thead>
          <tbody>
            {refusals.map((r, i) => (
              <tr key={i}>
                <td class="when">
                  <Time at={r.created_at} />
                </td>
                <td>{r.channel}</td>
                <td>{r.guard}</td>
                <td>{r.status}</td>
                <td>{r.reason}</td>
                <td>{r.method}</td>
                <td>{r.ip}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {refusals.length === 0 && <p class="muted">No guard refused anything.</p>}
    </section>
  );
}
