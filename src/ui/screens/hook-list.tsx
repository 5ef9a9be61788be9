/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { HOOK_STATUSES } from "../../hooks/status";
import { api, type Channel } from "../api";
import { size, visible } from "../format";
import { ContractBadge } from "../parts/contract-badge";
import { FirstCurl } from "../parts/first-curl";
import { TagChips } from "../parts/tag-chips";
import { Time } from "../parts/time";
import { RANGES, type Filters, type Row } from "./hook-list-data";

type Props = {
  f: Filters;
  hooks: Row[];
  /** The rows the user has not opened (shown bold, with a dot). */
  unread: ReadonlySet<string>;
  loaded: boolean;
  cursor: number;
  openId: string | undefined;
  picked: string[];
  setFilter: (name: keyof Filters | "clear", value: string, replace?: boolean) => void;
  open: (id: string) => void;
  pick: (id: string) => void;
};

/** The filters, the search box and the rows of the hooks list. */
export function HookList({ f, hooks, unread, loaded, cursor, openId, picked, setFilter, open, pick }: Props) {
  const [channels, setChannels] = useState<string[]>([]);
  useEffect(() => {
    api<Channel[]>("GET", "/channels").then(
      (c) => setChannels(c.map((x) => x.name)),
      () => undefined,
    );
  }, []);
  const [typed, setTyped] = useState(f.q);
  useEffect(() => setTyped(f.q), [f.q]);
  // The query follows the typing into the URL (replacing the entry, so Back leaves the screen).
  useEffect(() => {
    if (typed === f.q) return;
    const t = setTimeout(() => setFilter("q", typed, true), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const types = [...new Set(hooks.map((h) => h.event_type).filter((t): t is string => Boolean(t)))];
  const value = (e: Event) => (e.target as HTMLInputElement).value;
  // A channel alone with no hook yet is a channel to send to: its first curl, not "no match".
  const filtered = Boolean(f.status || f.type || f.range || f.q);
  const active = [f.channel, f.status, f.type, f.range].filter(Boolean).length;
  // On a phone the filters start folded (the list matters more), unless one is set.
  const [wide] = useState(() => matchMedia("(min-width: 641px)").matches);
  return (
    <>
      <form class="search" onSubmit={(e) => (e.preventDefault(), setFilter("q", typed))}>
        <input
          id="hook-search"
          type="search"
          aria-label="Search hooks"
          placeholder="Search: words, -word, a OR b, status:failed, after:-1h, payload.order.id:42"
          value={typed}
          onInput={(e) => setTyped(value(e))}
        />
      </form>
      <details class="filter-box" open={wide || active > 0}>
        <summary>Filters{active > 0 ? ` (${active})` : ""}</summary>
        <div class="filters">
          <label>
            Channel
            <select value={f.channel} onChange={(e) => setFilter("channel", value(e))}>
              <option value="">all</option>
              {[...new Set([...channels, ...(f.channel ? [f.channel] : [])])].map((c) => (
                <option value={c}>{c}</option>
              ))}
            </select>
          </label>
          <label>
            Status
            <select value={f.status} onChange={(e) => setFilter("status", value(e))}>
              <option value="">all</option>
              {HOOK_STATUSES.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Event type
            <input list="event-types" size={12} value={f.type} placeholder="any" onChange={(e) => setFilter("type", value(e).trim())} />
            <datalist id="event-types">
              {types.map((t) => (
                <option value={t} />
              ))}
            </datalist>
          </label>
          <label>
            Caught
            <select value={f.range} onChange={(e) => setFilter("range", value(e))}>
              <option value="">any time</option>
              {Object.entries(RANGES).map(([k, [label]]) => (
                <option value={k}>{label}</option>
              ))}
            </select>
          </label>
        </div>
      </details>
      {hooks.length > 0 && (
        <ol class="hooks" aria-label="Hooks">
          {hooks.map((h, i) => (
            <li
              key={h.id}
              data-id={h.id}
              class={[i === cursor && "cursor", unread.has(h.id) && "unread"].filter(Boolean).join(" ") || undefined}
              aria-current={h.id === openId ? "true" : undefined}
            >
              <input type="checkbox" aria-label={`Compare ${h.id}`} checked={picked.includes(h.id)} onChange={() => pick(h.id)} />
              <a class="row" href={`/ui/hooks/${h.id}${location.search}`} onClick={(e) => (e.preventDefault(), open(h.id))}>
                <span class="row-line">
                  <span class="row-what" title={`${h.channel}${h.event_type ? ` · ${visible(h.event_type)}` : ""}`}>
                    {unread.has(h.id) && (
                      <span class="unread-dot" aria-hidden="true">
                        ●{" "}
                      </span>
                    )}
                    {unread.has(h.id) && <span class="sr-only">Unread: </span>}
                    {h.channel}
                    {h.event_type && <span class="event"> · {visible(h.event_type)}</span>}
                  </span>
                  <Time at={h.created_at} class="when row-meta" />
                </span>
                <span class="row-line">
                  <span class="method">{h.method}</span>
                  <span class="preview" title={h.preview || undefined}>
                    {h.preview || (h.content_type || "no content type") + (h.query ? `  ?${h.query}` : "")}
                  </span>
                  <span class="row-meta" title={`${(h.size ?? 0).toLocaleString("en")} bytes`}>
                    {size(h.size ?? 0)}
                  </span>
                  {h.contract && <ContractBadge contract={h.contract} compact />}
                  <span class={`status status-${h.status}`}>{h.status}</span>
                </span>
              </a>
              {h.tags && h.tags.length > 0 && <TagChips tags={h.tags} search={location.search} />}
            </li>
          ))}
        </ol>
      )}
      {loaded && hooks.length === 0 && !filtered && !f.after && <FirstCurl channel={f.channel} />}
      {loaded && hooks.length === 0 && (filtered || f.after) && (
        <div class="empty">
          <p>No hooks match these filters.</p>
          <button type="button" onClick={() => setFilter("clear", "")}>
            Clear the filters
          </button>
        </div>
      )}
    </>
  );
}
