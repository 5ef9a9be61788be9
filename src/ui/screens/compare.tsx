/** @jsxImportSource preact */
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, type Hook } from "../api";
import { bytesOf, viewBody } from "../body";
import { type Change, diffJson } from "../diff";
import { size } from "../format";
import { Time } from "../parts/time";
import { link } from "../router";

const MARK: Record<Change["kind"], string> = { added: "+ added", removed: "− removed", changed: "~ changed", same: "= same" };
/** A value as JSON, cut at 2,000 characters (a text body can be a megabyte). */
const shown = (v: unknown) => {
  const text = v === undefined ? "" : JSON.stringify(v);
  return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length.toLocaleString("en")} characters)` : text;
};

/** Two hooks side by side: their request lines, headers and JSON bodies as a structural diff. */
export function Compare({ url }: { url: URL }) {
  const ids = [url.searchParams.get("a") ?? "", url.searchParams.get("b") ?? ""];
  const [hooks, setHooks] = useState<[Hook, Hook] | undefined>();
  const [error, setError] = useState("");
  const [same, setSame] = useState(false);
  useEffect(() => {
    Promise.all(ids.map((id) => api<Hook>("GET", `/hooks/${encodeURIComponent(id)}`))).then(
      ([a, b]) => setHooks([a!, b!]),
      (e) => setError(e.message),
    );
  }, [ids[0], ids[1]]);
  const diffs = useMemo(() => {
    if (!hooks) return undefined;
    const [a, b] = hooks;
    const view = (h: Hook) => viewBody(bytesOf(h.body), h.content_type);
    const [va, vb] = [view(a), view(b)];
    const request = diffJson(
      { method: a.method, query: a.query, content_type: a.content_type },
      { method: b.method, query: b.query, content_type: b.content_type },
    );
    const headers = diffJson(a.headers, b.headers);
    const json = va.kind === "json" && vb.kind === "json";
    const body = json ? diffJson(JSON.parse(va.text), JSON.parse(vb.text)) : diffJson(va.text, vb.text);
    return { request, headers, body, json, sizes: [bytesOf(a.body).length, bytesOf(b.body).length] };
  }, [hooks]);
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
  const table = (label: string, changes: Change[]) => {
    const rows = same ? changes : changes.filter((c) => c.kind !== "same");
    const count = changes.filter((c) => c.kind !== "same").length;
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
                  <tr key={c.path} class={`diff-${c.kind}`}>
                    <td class="path">{c.path}</td>
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
      <label class="inline">
        <input type="checkbox" checked={same} onChange={() => setSame(!same)} /> Show what is the same too
      </label>
      {table("Request", diffs.request)}
      {table("Headers", diffs.headers)}
      {table(diffs.json ? "Body (JSON)" : "Body (text)", diffs.body)}
    </section>
  );
}
