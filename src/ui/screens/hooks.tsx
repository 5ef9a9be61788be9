/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { HOOK_STATUSES } from "../../hooks/status";
import { api, query, type Hook } from "../api";
import { useStream } from "../live";
import { navigate } from "../router";
import { Bulk } from "./bulk";
import { Size } from "../parts/size";
import { Time } from "../parts/time";

/** Hooks, newest first, live; the filters live in the URL so that a link reproduces the view. */
export function Hooks({ url }: { url: URL }) {
  const channel = url.searchParams.get("channel") ?? "";
  const status = url.searchParams.get("status") ?? "";
  const after = url.searchParams.get("after") ?? "";
  const [hooks, setHooks] = useState<Hook[]>([]);
  const [selected, setSelected] = useState(0);
  const [follow, setFollow] = useState(true);
  const [error, setError] = useState("");
  // The list shows no bodies: its stream sends hooks without them (`size` instead), and of a burst
  // only the newest 50 (all it can show), so a busy server costs neither it nor the browser more.
  const filter = query({ channel, status, fields: "summary", latest: "50" });
  // A page read may answer after new hooks arrived on the stream: those that arrived since the read
  // was asked for stay on top of its answer, so a late answer never hides one.
  const arrivals = useRef({ count: 0, at: new Map<string, number>() });
  const reread = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const load = () => {
    const asked = arrivals.current.count;
    return api<Hook[]>("GET", `/hooks${query({ channel, status, after, limit: "50", fields: "summary" })}`).then(
      (page) => {
        const inPage = new Set(page.map((h) => h.id));
        const since = (h: Hook) => (arrivals.current.at.get(h.id) ?? -1) >= asked && !inPage.has(h.id);
        setHooks((shown) => (after ? page : [...shown.filter(since), ...page].slice(0, 50)));
        setError("");
      },
      (e) => setError(e.message),
    );
  };
  useEffect(() => void load(), [channel, status, after]);
  useStream(
    filter,
    {
      hook: (h) => {
        const hook = h as Hook;
        setHooks((all) => {
          const at = all.findIndex((x) => x.id === hook.id);
          if (at >= 0) return all.map((x) => (x.id === hook.id ? hook : x));
          // New hooks arrive at the top of the first page only.
          if (after || (status && hook.status !== status)) return all;
          if (arrivals.current.at.size > 1000) arrivals.current.at.clear(); // only the latest arrivals matter
          arrivals.current.at.set(hook.id, arrivals.current.count++);
          return [hook, ...all].slice(0, 50);
        });
        if (follow) setSelected(0);
      },
      hookDeleted: (d) => setHooks((all) => all.filter((x) => x.id !== d.id)),
      reset: load,
      // Changes were left out (a burst): a row shown may have changed or gone. The page is read again
      // at most once a second, and once more after the burst.
      skipped: () => {
        if (reread.current) return;
        reread.current = setTimeout(() => ((reread.current = undefined), void load()), 1000);
      },
    },
    [filter, after, follow],
  );
  useEffect(() => () => clearTimeout(reread.current), []);

  useEffect(() => {
    function key(e: KeyboardEvent) {
      if ((e.target as HTMLElement).closest("input, select, textarea")) return;
      if (e.key === "j") setSelected((s) => Math.min(s + 1, hooks.length - 1)), setFollow(false);
      else if (e.key === "k") setSelected((s) => Math.max(s - 1, 0));
      else if (e.key === "Enter" && hooks[selected]) navigate(`/ui/hooks/${hooks[selected]!.id}`);
    }
    addEventListener("keydown", key);
    return () => removeEventListener("keydown", key);
  }, [hooks, selected]);

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(url.search);
    if (value) next.set(name, value);
    else next.delete(name);
    next.delete("after");
    navigate(`/ui/hooks${next.size ? `?${next}` : ""}`);
  };
  const last = hooks[hooks.length - 1];
  return (
    <section>
      <h1>Hooks</h1>
      <div class="filters">
        <label>
          Channel
          <input value={channel} onChange={(e) => setFilter("channel", (e.target as HTMLInputElement).value.trim())} placeholder="all" />
        </label>
        <label>
          Status
          <select value={status} onChange={(e) => setFilter("status", (e.target as HTMLSelectElement).value)}>
            <option value="">all</option>
            {HOOK_STATUSES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          <span>Follow newest</span>
          <input type="checkbox" checked={follow} onChange={(e) => setFollow((e.target as HTMLInputElement).checked)} />
        </label>
        <span class="muted">j/k move, Enter opens, Escape comes back</span>
      </div>
      <Bulk channel={channel} status={status} onDone={load} />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="scroll">
        <table aria-label="Hooks">
          <thead>
            <tr>
              <th>Id</th>
              <th>Channel</th>
              <th>Status</th>
              <th class="opt">Method</th>
              <th class="opt">Type</th>
              <th class="opt">Size</th>
              <th>Caught</th>
            </tr>
          </thead>
          <tbody>
            {hooks.map((h, i) => (
              <tr
                key={h.id}
                data-id={h.id}
                class={i === selected ? "selected" : ""}
                aria-selected={i === selected}
                onClick={() => navigate(`/ui/hooks/${h.id}`)}
              >
                <td class="id">
                  <a href={`/ui/hooks/${h.id}`} title={h.id} onClick={(e) => (e.preventDefault(), navigate(`/ui/hooks/${h.id}`))}>
                    <code>{h.id}</code>
                  </a>
                </td>
                <td class="name" title={h.channel}>
                  {h.channel}
                </td>
                <td>
                  <span class={`status status-${h.status}`}>{h.status}</span>
                </td>
                <td class="opt">{h.method}</td>
                <td class="opt">{h.content_type || <span class="muted">none</span>}</td>
                <td class="opt num">
                  <Size bytes={sizeOf(h)} />
                </td>
                <td class="when">
                  <Time at={h.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hooks.length === 0 && <p class="muted">No hooks{channel || status ? " match these filters" : " yet"}.</p>}
      <div class="actions">
        {after && <button onClick={() => setFilter("after", "")}>Newest</button>}
        {hooks.length === 50 && last && <button onClick={() => navigate(`/ui/hooks${query({ channel, status, after: last.id })}`)}>Older</button>}
      </div>
    </section>
  );
}

/** Bytes of a hook's body: `size` of a summary from the stream, else decoded from the base64 body. */
function sizeOf(h: Hook & { size?: number }): number {
  if (h.size !== undefined) return h.size;
  return Math.floor((h.body.length * 3) / 4) - (h.body.endsWith("==") ? 2 : h.body.endsWith("=") ? 1 : 0);
}
