/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, query, type Refusal } from "../api";
import { useStream } from "../live";
import { Time } from "../parts/time";
import { link, navigate } from "../router";
import { Notice } from "../parts/notice";
import { visible } from "../format";

/** A refusal as the server lists it; `id` (for its details) comes with the refusals of every kind. */
export type RefusalRow = Refusal & { id?: string };

const STATUSES = ["400", "401", "403", "405", "413", "415", "503"];
const same = (a: RefusalRow, b: RefusalRow) =>
  a.id !== undefined ? a.id === b.id : a.created_at === b.created_at && a.guard === b.guard && a.channel === b.channel && a.ip === b.ip;

/** A refusal's status as a badge: a provider's handshake answered reads as such, not as a failure. */
export function RefusalStatus({ r }: { r: Refusal }) {
  return r.kind === "handshake" ? (
    <span class="status status-handled">{r.status} handshake answered</span>
  ) : (
    <span class="status status-failed">{r.status}</span>
  );
}

/**
 * Every refused request, newest first: guards' refusals, bad channel names, bodies over the limit,
 * paused channels, and the providers' handshakes answered (shown as such; a filter keeps either).
 * New ones arrive at the top (the stream's `refusal` event); each links to its details.
 */
export function Refusals({ url }: { url: URL }) {
  const channel = url.searchParams.get("channel") ?? "";
  const guard = url.searchParams.get("guard") ?? "";
  const status = url.searchParams.get("status") ?? "";
  const kind = url.searchParams.get("kind") ?? "";
  const [refusals, setRefusals] = useState<RefusalRow[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState("");
  // Refusals that came on the stream after a read was asked for stay on top of its answer, which may
  // arrive later and would otherwise hide them.
  const arrived = useRef<RefusalRow[]>([]);
  const ask = useLatest(`${channel} ${guard} ${status} ${kind}`);
  const load = () => {
    const answer = ask();
    arrived.current = [];
    return api<RefusalRow[]>("GET", `/refusals${query({ channel, guard, status, kind })}`).then(
      (page) => {
        if (!answer.take()) return;
        const fresh = arrived.current.filter((r) => !page.some((p) => same(p, r)));
        setRefusals([...fresh, ...page].slice(0, 50));
        setLoaded(true);
        setError("");
      },
      (e) => answer.take() && (setError(e.message), setLoaded(true)),
    );
  };
  useEffect(() => void load(), [channel, guard, status, kind]);
  useStream(
    { channel: channel || undefined },
    {
      refusal: (r) => {
        const refusal = r as RefusalRow;
        if ((guard && refusal.guard !== guard) || (status && String(refusal.status) !== status) || (kind && refusal.kind !== kind)) return;
        arrived.current = [refusal, ...arrived.current].slice(0, 50);
        setRefusals((all) => [refusal, ...all].slice(0, 50));
      },
      reset: load,
    },
    [channel, guard, status, kind],
  );
  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(url.search);
    value ? next.set(name, value) : next.delete(name);
    navigate(`/ui/refusals${next.size ? `?${next}` : ""}`, true);
  };
  const value = (e: Event) => (e.target as HTMLInputElement).value.trim();
  return (
    <section>
      <h1>Refusals</h1>
      <div class="filters">
        <label>
          Channel
          <input value={channel} placeholder="all" onChange={(e) => setFilter("channel", value(e))} />
        </label>
        <label>
          Kind
          <select value={kind} onChange={(e) => setFilter("kind", value(e))}>
            <option value="">refusals and handshakes</option>
            <option value="refused">refused</option>
            <option value="handshake">handshake answered</option>
          </select>
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setFilter("status", value(e))}>
            <option value="">all</option>
            {STATUSES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      <Notice error={error} />
      {refusals.length > 0 && (
        <div class="scroll">
          <table class="cards" aria-label="Refusals">
            <thead>
              <tr>
                <th>When</th>
                <th>Channel</th>
                <th>Status</th>
                <th>Guard</th>
                <th>Reason</th>
                <th class="opt">Method</th>
                <th class="opt">IP</th>
                <th>
                  <span class="sr-only">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {refusals.map((r, i) => (
                <tr key={r.id ?? i}>
                  <td data-label="When" class="when">
                    <Time at={r.created_at} />
                  </td>
                  <td data-label="Channel" class="name" title={visible(r.channel)}>
                    {visible(r.channel)}
                  </td>
                  <td data-label="Status">
                    <RefusalStatus r={r} />
                  </td>
                  <td data-label="Guard">{r.guard || <span class="muted">none</span>}</td>
                  <td data-label="Reason" class="wrap">
                    {visible(r.reason)}
                    {r.diagnosis && <div class="muted">Why: {visible(r.diagnosis.message)}</div>}
                  </td>
                  <td data-label="Method" class="opt">
                    {r.method}
                  </td>
                  <td data-label="IP" class="opt">
                    {r.ip}
                  </td>
                  <td>
                    {r.id && (
                      <a href={`/ui/refusals/${r.id}`} onClick={link} aria-label={`Details of the refusal ${r.id}`}>
                        Details
                      </a>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {loaded && refusals.length === 0 && (
        <div class="empty">
          <p>{channel || status || kind ? "No refusal matches these filters." : "Nothing was refused."}</p>
          <p class="hint">
            A request that a guard refuses, that names a bad channel, sends too large a body or reaches a paused channel shows here with its headers.
          </p>
        </div>
      )}
    </section>
  );
}
