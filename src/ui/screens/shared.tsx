/** @jsxImportSource preact */
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Hook } from "../api";
import { bytesOf } from "../body";
import { visible } from "../format";
import { KvTable, queryRows } from "../parts/kv-table";
import { Time } from "../parts/time";
import { HookBody } from "./hook-body";

/** What GET /ui/api/shared/{token} answers. */
type Shared = { kind: "hook"; expires_at: string; hook: Hook } | { kind: "view"; expires_at: string; view: { name: string; query: string; hooks: Hook[] } };

/**
 * A share link's page (/ui/share/{token}), open without signing in: the hook, or the view's newest
 * hooks, read-only. Nothing on it acts, and nothing else of the dashboard is reachable from it.
 */
export function SharedPage({ token }: { token: string }) {
  const [shared, setShared] = useState<Shared | null | undefined>(undefined);
  useEffect(() => {
    fetch(`/ui/api/shared/${encodeURIComponent(token)}`, { credentials: "omit", referrerPolicy: "no-referrer" }).then(
      async (res) => setShared(res.ok ? ((await res.json()) as Shared) : null),
      () => setShared(null),
    );
  }, [token]);
  if (shared === undefined) return <p class="muted">Loading…</p>;
  return (
    <main class="shared">
      {shared === null ? (
        <section>
          <h1>Link not found</h1>
          <p>This share link does not exist, has expired or was revoked.</p>
        </section>
      ) : shared.kind === "hook" ? (
        <section>
          <h1>Shared hook</h1>
          <p class="muted">
            Read-only; the link expires <Time at={shared.expires_at} />.
          </p>
          <SharedHook hook={shared.hook} />
        </section>
      ) : (
        <section>
          <h1>Shared view {visible(shared.view.name)}</h1>
          <p class="muted">
            <code>{visible(shared.view.query)}</code> · {shared.view.hooks.length} newest hook(s), read-only; the link expires <Time at={shared.expires_at} />.
          </p>
          {shared.view.hooks.map((h) => (
            <details key={h.id}>
              <summary>
                {h.method} {visible(h.channel)} · {h.status} · <Time at={h.created_at} />
              </summary>
              <SharedHook hook={h} />
            </details>
          ))}
        </section>
      )}
    </main>
  );
}

function SharedHook({ hook }: { hook: Hook }) {
  const bytes = useMemo(() => bytesOf(hook.body), [hook.body]);
  return (
    <article aria-label={`Hook ${hook.id}`}>
      <p>
        <strong>{hook.method}</strong> channel <code>{visible(hook.channel)}</code> · {hook.status} · caught <Time at={hook.created_at} />
      </p>
      <h2>Query</h2>
      <KvTable label="Query parameters" rows={queryRows(hook.query)} empty="No query parameters." />
      <h2>Headers</h2>
      <KvTable label="Headers" rows={Object.entries(hook.headers)} empty="No headers." />
      <HookBody hook={hook} bytes={bytes} />
    </article>
  );
}
