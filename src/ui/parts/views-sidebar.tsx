/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { link } from "../router";
import { ShareButton } from "./share";

type View = { name: string; query: string; shared: boolean; count?: number; count_exact?: boolean };

/** The view a URL names (`?view=NAME`): the user's own first, else the shared one. */
export function viewNamed(views: readonly View[], name: string): View | undefined {
  return views.find((v) => v.name === name && !v.shared) ?? views.find((v) => v.name === name);
}

/**
 * Saved views (docs/views.md) with their counts: each a link to /ui/hooks?view=NAME, which any
 * signed-in user can open. Save keeps the current search under a name. Shown once there is a view
 * or a search to save.
 */
export function ViewsSidebar({ current, query, admin, onViews }: { current: string; query: string; admin: boolean; onViews?: (v: View[]) => void }) {
  const [views, setViews] = useState<View[]>([]);
  const [error, setError] = useState("");
  const [name, setName] = useState("");
  const [shared, setShared] = useState(false);
  const load = () =>
    api<View[]>("GET", "/views?include=count")
      .then((v) => (setViews(v), onViews?.(v)))
      .catch((e) => setError((e as Error).message));
  useEffect(() => void load(), []);
  async function save(e: Event) {
    e.preventDefault();
    try {
      await api("POST", "/views", { name, query, shared });
      setName("");
      setError("");
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  // Nothing saved and nothing to save: no box above the list (on a phone it pushed the hooks down).
  if (views.length === 0 && !query && !error) return null;
  return (
    <aside class="views-sidebar" aria-label="Saved views">
      <h2>Views</h2>
      {views.length === 0 ? (
        <p class="muted">No saved views yet.</p>
      ) : (
        <ul>
          {views.map((v) => (
            <li>
              <a href={`/ui/hooks?view=${encodeURIComponent(v.name)}`} onClick={link} aria-current={current === v.name ? "page" : undefined} title={v.query}>
                <span>{v.name}</span>
                {v.shared && <span class="muted"> (shared)</span>}
                <span class="badge">
                  {v.count === undefined ? "" : `${v.count.toLocaleString("en")}${v.count_exact === false ? "+" : ""}`}
                  <span class="sr-only"> hooks</span>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {current && views.some((v) => v.name === current) && (
        <ShareButton key={current} what={{ view: current }} label={`Share the view ${current} (a read-only link)`} />
      )}
      {query && (
        <form class="actions" onSubmit={save}>
          <label>
            Name{" "}
            <input value={name} required pattern="[a-z0-9]+([_\-][a-z0-9]+)*" maxLength={64} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
          {admin && (
            <label>
              <input type="checkbox" checked={shared} onChange={(e) => setShared((e.target as HTMLInputElement).checked)} /> Shared
            </label>
          )}
          <button type="submit">Save this search</button>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </aside>
  );
}
