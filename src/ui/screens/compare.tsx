/** @jsxImportSource preact */
import { useEffect, useMemo, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, type Hook } from "../api";
import { type DiffChange, diffHooks } from "../../lib/diff";
import { bytesOf } from "../body";
import { size } from "../format";
import { Time } from "../parts/time";
import { link } from "../router";
import { jsonString } from "../format";

const MARK: Record<DiffChange["kind"], string> = { added: "+ added", removed: "− removed", changed: "~ changed" };

/** A path as one reads it: data.items[1].sku (a key that is no plain word in brackets). */
function pathText(path: string[]): string {
  if (path.length === 0) return "(the whole value)";
  return path.map((k, i) => (/^\d+$/.test(k) ? `[${k}]` : /^[A-Za-z_$][\w$-]*$/.test(k) ? `${i ? "." : ""}${k}` : `[${jsonString(k)}]`)).join("");
}
/** A value as JSON, cut at 2,000 characters (a text body can be a megabyte). */
const shown = (v: unknown) => {
  const text = jsonString(v);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length.toLocaleString("en")} characters)` : text;
};

/** Two hooks side by side: their request lines, query, headers and JSON bodies as a structural diff (src/lib/diff.ts, as `mailroom hooks diff`). */
export function Compare({ url }: { url: URL }) {
  const ids = [url.searchParams.get("a") ?? "", url.searchParams.get("b") ?? ""];
  const [hooks, setHooks] = useState<[Hook, Hook] | undefined>();
  const [error, setError] = useState("");
  // Another pair picked meanwhile: the late answer of the pair before is not shown.
  const ask = useLatest(`${ids[0]} ${ids[1]}`);
  useEffect(() => {
    const answer = ask();
    Promise.all(ids.map((id) => api<Hook>("GET", `/hooks/${encodeURIComponent(id)}`))).then(
      ([a, b]) => answer.take() && (setHooks([a!, b!]), setError("")),
      (e) => answer.take() && setError(e.message),
    );
  }, [ids[0], ids[1]]);
  const diffs = useMemo(() => hooks && { ...diffHooks(hooks[0], hooks[1]), sizes: hooks.map((h) => bytesOf(h.body).length) }, [hooks]);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!hooks || !diffs) return <p class="muted">Loading…</p>;
  const head = (h: Hook, i: number) => (
    <li>
      <strong>{i === 0 ? "A" : "B"}</strong>{" "}
      <a href={`/ui/hooks/${h.id}`} onClick={link}>
        {h.channel}
      </a>{" "}
      <span class="muted">
        <code>{h.id}</code> · <Time at={h.created_at} /> · {size(diffs.sizes[i]!)}
      </span>
    </li>
  );
  const table = (label: string, rows: DiffChange[]) => {
    const count = rows.length;
    return (
      <>
        <h2>
          {label} <span class="muted">({count === 0 ? "no difference" : `${count} difference${count === 1 ? "" : "s"}`})</span>
        </h2>
        {rows.length > 0 && (
          <div class="scroll">
            <table class="diff" aria-label={`${label} diff`}>
              <thead>
                <tr>
                  <th>Path</th>
                  <th>Change</th>
                  <th>A</th>
                  <th>B</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={c.path.join("\u0000")} class={`diff-${c.kind}`}>
                    <td class="path">{pathText(c.path)}</td>
                    <td>{MARK[c.kind]}</td>
                    <td data-label="A">{shown(c.before)}</td>
                    <td data-label="B">{shown(c.after)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </>
    );
  };
  return (
    <section>
      <p>
        <a href="/ui/hooks" onClick={link}>
          ← Hooks
        </a>
      </p>
      <h1>Compare two hooks</h1>
      <ul class="compared">
        {head(hooks[0], 0)}
        {head(hooks[1], 1)}
      </ul>
      {table("Request", diffs.request)}
      {table("Query", diffs.query)}
      {table("Headers", diffs.headers)}
      {diffs.body.kind === "json" ? (
        table("Body (JSON)", diffs.body.changes)
      ) : (
        <>
          <h2>Body</h2>
          <p>{diffs.body.same ? "The bodies are the same bytes." : "The bodies differ (one of them is not JSON, so they are compared as bytes)."}</p>
        </>
      )}
    </section>
  );
}
