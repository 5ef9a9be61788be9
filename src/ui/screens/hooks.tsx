/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { query } from "../api";
import { navigate } from "../router";
import { Bulk } from "./bulk";
import { BulkQuery } from "./bulk-query";
import { viewNamed, ViewsSidebar } from "../parts/views-sidebar";
import { RANGES } from "../filters";
import { HookDetail } from "./hook";
import { HookList } from "./hook-list";
import { filtersOf, type Filters, useHookList } from "./hook-list-data";
import { Notice } from "../parts/notice";
import { UnreadBar } from "../parts/unread-bar";

/**
 * The inspector: the hooks list and the open hook side by side on a wide screen, one of them on a
 * phone. The filters and the search live in the URL (a link reproduces the view); the open hook is
 * the path (/ui/hooks/ID?filters). Keys: j/k or the arrows move (and open, while a hook is open),
 * Enter opens, / searches, x picks for comparing, Escape closes.
 */
export function Hooks({ url, id, admin = false }: { url: URL; id?: string; admin?: boolean }) {
  const f = filtersOf(url);
  const view = url.searchParams.get("view") ?? "";
  // The whole search as the query language says it: what bulk actions and saved views take.
  const fullQuery = [
    f.q.trim(),
    f.channel && `channel:${f.channel}`,
    f.status && `status:${f.status}`,
    f.type && `event:${f.type}`,
    RANGES[f.range] && `after:-${f.range}`,
  ]
    .filter(Boolean)
    .join(" ");
  // /ui/hooks?view=NAME shows the view's query (kept in the URL, so the link can be shared either way).
  const openView = (views: { name: string; query: string; shared: boolean }[]) => {
    const v = view ? viewNamed(views, view) : undefined;
    if (v && f.q !== v.query) navigate(`/ui/hooks?${new URLSearchParams({ view, q: v.query })}`, true);
  };
  const { hooks, error, loaded, load, unread } = useHookList(f);
  const [cursor, setCursor] = useState(0);
  const [picked, setPicked] = useState<string[]>([]);
  const listRef = useRef<HTMLDivElement>(null);
  const open = (to: string) => navigate(`/ui/hooks/${to}${url.search}`);
  const close = () => navigate(`/ui/hooks${url.search}`);
  const pick = (h: string) => setPicked((p) => (p.includes(h) ? p.filter((x) => x !== h) : [...p, h].slice(-2)));
  // The cursor follows the open hook.
  useEffect(() => {
    const at = hooks.findIndex((h) => h.id === id);
    if (at >= 0) setCursor(at);
  }, [id, hooks]);
  useEffect(() => {
    listRef.current?.querySelector("li.cursor")?.scrollIntoView({ block: "nearest" });
  }, [cursor]);

  // One listener for the screen's life; it reads what is shown now (a row that just arrived counts).
  const now = useRef({ hooks, cursor, id, open, close, pick });
  now.current = { hooks, cursor, id, open, close, pick };
  useEffect(() => {
    function key(e: KeyboardEvent) {
      if (e.metaKey || e.ctrlKey || e.altKey || document.querySelector("dialog[open]")) return;
      const target = e.target as HTMLElement;
      if (target.closest("input, select, textarea, [contenteditable]")) {
        if (e.key === "Escape") target.blur();
        return;
      }
      const { hooks, cursor, id, open, close, pick } = now.current;
      const at = hooks[cursor];
      const move = (by: number) => {
        e.preventDefault();
        const next = Math.max(0, Math.min(cursor + by, hooks.length - 1));
        now.current.cursor = next;
        setCursor(next);
        // With a hook open, moving opens the next one (a reading pane); else it only moves the cursor.
        if (id && hooks[next] && hooks[next]!.id !== id) open(hooks[next]!.id);
      };
      // The arrows scroll a body that has the focus; j and k always move.
      const arrows = !target.closest("pre, .tree");
      if (e.key === "j" || (e.key === "ArrowDown" && arrows)) move(1);
      else if (e.key === "k" || (e.key === "ArrowUp" && arrows)) move(-1);
      else if (e.key === "Enter" && at && !target.closest("button, a")) open(at.id);
      else if (e.key === "x" && at) pick(at.id);
      else if (e.key === "/") e.preventDefault(), document.getElementById("hook-search")?.focus();
      else if (e.key === "Escape" && id) close();
    }
    addEventListener("keydown", key);
    return () => removeEventListener("keydown", key);
  }, []);

  const setFilter = (name: keyof Filters | "clear", value: string, replace = false) => {
    const next = new URLSearchParams(name === "clear" ? "" : url.search);
    if (name !== "clear") value ? next.set(name, value) : next.delete(name);
    if (name !== "after") next.delete("after");
    navigate(`${url.pathname}${next.size ? `?${next}` : ""}`, replace);
  };
  const last = hooks[hooks.length - 1];
  const at = id ? hooks.findIndex((h) => h.id === id) : -1;
  return (
    <div class={`split ${id ? "open" : hooks.length > 0 ? "closed" : "alone"}`}>
      <section class="list-pane" ref={listRef} aria-label="Hooks list">
        <div class="list-head">
          <h1>Hooks</h1>
          <span class="hint keys-hint">
            <kbd>j</kbd> <kbd>k</kbd> move · <kbd>Enter</kbd> open · <kbd>/</kbd> search · <kbd>x</kbd> compare
          </span>
        </div>
        <UnreadBar channel={f.channel} query={fullQuery} onDone={load} />
        <ViewsSidebar current={view} query={fullQuery} admin={admin} onViews={openView} />
        <Bulk channel={f.channel} status={f.status} onDone={load} />
        <BulkQuery query={fullQuery} admin={admin} onDone={load} />
        <Notice error={error} />
        {picked.length > 0 && (
          <div class="compare-bar" role="status">
            <span>{picked.length === 1 ? "Pick one more hook to compare." : "Two hooks picked."}</span>
            <button type="button" class="primary" disabled={picked.length < 2} onClick={() => navigate(`/ui/compare${query({ a: picked[0], b: picked[1] })}`)}>
              Compare
            </button>
            <button type="button" onClick={() => setPicked([])}>
              Clear
            </button>
          </div>
        )}
        <HookList
          f={f}
          hooks={hooks}
          unread={unread}
          loaded={loaded}
          cursor={cursor}
          openId={id}
          picked={picked}
          setFilter={setFilter}
          open={open}
          pick={pick}
        />
        <div class="pager">
          {f.after && <button onClick={() => setFilter("after", "")}>Newest</button>}
          {hooks.length === 50 && last && <button onClick={() => setFilter("after", last.id)}>Older</button>}
        </div>
      </section>
      {id ? (
        <section class="detail-pane" aria-label="Hook">
          <HookDetail
            key={id}
            id={id}
            onClose={close}
            open={open}
            newer={at > 0 ? hooks[at - 1]?.id : undefined}
            older={at >= 0 ? hooks[at + 1]?.id : undefined}
          />
        </section>
      ) : (
        hooks.length > 0 && (
          <section class="detail-pane placeholder" aria-label="Hook">
            <div class="empty">
              <h2>Pick a hook</h2>
              <p class="muted">
                Click a row or press <kbd>Enter</kbd> to read it here. Tick two rows (or press <kbd>x</kbd> on each) to compare them.
              </p>
            </div>
          </section>
        )
      )}
    </div>
  );
}
