/** @jsxImportSource preact */
import { useEffect, useMemo, useState } from "preact/hooks";
import { canTransition } from "../../hooks/status";
import { api, type Attempt, type Hook } from "../api";
import { bytesOf, curlOf, HEX_BYTES, viewBody } from "../body";
import { useStream } from "../live";
import { size } from "../format";
import { Size } from "../parts/size";
import { Time } from "../parts/time";

/** One hook: everything a sender sent (as text, never as HTML), its events and attempts, and actions. */
export function HookDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const [hook, setHook] = useState<Hook | undefined>();
  const [attempts, setAttempts] = useState<Attempt[]>([]);
  const [error, setError] = useState("");
  const load = () => {
    api<Hook>("GET", `/hooks/${id}`).then(setHook, (e) => setError(e.message));
    api<Attempt[]>("GET", `/hooks/${id}/attempts`).then(setAttempts, () => undefined);
  };
  useEffect(load, [id]);
  // Summaries only: this screen reads its hook again when it changes.
  // Only this hook's events: a busy server sends the screen nothing for the others.
  useStream(`?fields=summary&hook=${encodeURIComponent(id)}`, { hook: (h) => (h as Hook).id === id && load(), reset: load }, [id]);
  // Decoded and formatted once per body, not on every render (a 1 MB body costs tens of ms each time).
  const bytes = useMemo(() => bytesOf(hook?.body ?? ""), [hook?.body]);
  const body = useMemo(() => viewBody(bytes, hook?.content_type ?? ""), [bytes, hook?.content_type]);
  const payload = useMemo(() => (hook?.payload == null ? "null" : JSON.stringify(hook.payload, null, 2)), [hook?.payload]);
  if (!hook)
    return error ? (
      <p class="error" role="alert">
        {error}
      </p>
    ) : (
      <p class="muted">Loading…</p>
    );

  async function act(what: "process" | "fail" | "discard" | "retry" | "delete") {
    try {
      if (what === "delete") {
        if (!confirm(`Delete hook ${id}?`)) return;
        await api("DELETE", `/hooks/${id}`);
        return onClose();
      }
      let body: unknown;
      if (what === "fail") {
        const message = prompt("Why did it fail?");
        if (message === null) return;
        body = { message };
      }
      setHook(await api<Hook>("POST", `/hooks/${id}/${what}`, body));
      setError("");
    } catch (e) {
      setError((e as Error).message);
    }
  }
  function download() {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
    a.download = `${hook!.id}.body`;
    a.click();
    URL.revokeObjectURL(a.href);
  }
  const s = hook.status;
  return (
    <section>
      <p class="only-narrow">
        <a href="/ui/hooks" onClick={(e) => (e.preventDefault(), onClose())}>
          ← Hooks
        </a>
      </p>
      <h1 class="hook-title">
        <code>{hook.id}</code> <span class={`status status-${s}`}>{s}</span>
      </h1>
      <div class="actions">
        {canTransition("process", s) && <button onClick={() => act("process")}>Mark handled</button>}
        {canTransition("fail", s) && <button onClick={() => act("fail")}>Fail</button>}
        {canTransition("discard", s) && <button onClick={() => act("discard")}>Discard</button>}
        {canTransition("retry", s) && <button onClick={() => act("retry")}>Retry</button>}
        <button onClick={() => act("delete")}>Delete</button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="scroll">
        <table aria-label="Request">
          <tbody>
            <tr>
              <th>Channel</th>
              <td class="wrap">{hook.channel}</td>
            </tr>
            <tr>
              <th>Method</th>
              <td>{hook.method}</td>
            </tr>
            <tr>
              <th>Query</th>
              <td>
                <code>{hook.query}</code>
              </td>
            </tr>
            <tr>
              <th>Sender ip</th>
              <td>{hook.ip}</td>
            </tr>
            <tr>
              <th>Caught</th>
              <td>
                <Time at={hook.created_at} />
              </td>
            </tr>
            <tr>
              <th>Size</th>
              <td>
                <Size bytes={bytes.length} />
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <h2>Headers</h2>
      <div class="scroll">
        <table aria-label="Headers">
          <tbody>
            {Object.entries(hook.headers).map(([k, v]) => (
              <tr key={k}>
                <th>{k}</th>
                <td class="wrap">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>
        Body{" "}
        <span class="muted">
          ({body.kind}
          {body.kind === "hex" && bytes.length > HEX_BYTES ? `, first ${size(HEX_BYTES)}` : ""})
        </span>
      </h2>
      <div class="actions">
        <button onClick={download}>Download</button>
        <button onClick={() => navigator.clipboard?.writeText(curlOf(hook, location.origin))}>Copy as curl</button>
      </div>
      {body.kind === "form" ? (
        <div class="scroll">
          <table aria-label="Form fields">
            <tbody>
              {body.fields!.map(([k, v], i) => (
                <tr key={i}>
                  <th>{k}</th>
                  <td>{v}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <Clipped key={`${hook.id} body`} label="Body" text={body.text} wide={body.kind === "hex"} />
      )}
      <h2>Payload</h2>
      <Clipped key={`${hook.id} payload`} label="Payload" text={payload} />
      <h2>Events</h2>
      <div class="scroll">
        <table aria-label="Events">
          <thead>
            <tr>
              <th>When</th>
              <th>Event</th>
              <th>Actor</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>
                <Time at={hook.created_at} />
              </td>
              <td>caught</td>
              <td>{hook.ip}</td>
              <td></td>
            </tr>
            {hook.events.map((e, i) => (
              <tr key={i}>
                <td>
                  <Time at={e.created_at} />
                </td>
                <td>{e.kind}</td>
                <td>{e.actor}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h2>Handler attempts</h2>
      {attempts.length === 0 ? (
        <p class="muted">No handler ran on this hook.</p>
      ) : (
        <div class="scroll">
          <table aria-label="Attempts">
            <thead>
              <tr>
                <th>Handler</th>
                <th>#</th>
                <th>Outcome</th>
                <th>Status</th>
                <th>Excerpt</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((a, i) => (
                <tr key={i}>
                  <td>{a.handler}</td>
                  <td>{a.attempt}</td>
                  <td>{a.outcome}</td>
                  <td>{a.http_status ?? a.exit_code ?? ""}</td>
                  <td>
                    <code>{a.excerpt}</code>
                  </td>
                  <td>{a.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Shown at first: a long body is cut (at a line end) after this many characters; "Show all" shows the rest. */
const SHOWN = 64 * 1024;

/** A long text in a <pre>, first SHOWN characters only until asked: laying out a megabyte of text takes the browser seconds. */
function Clipped({ label, text, wide = false }: { label: string; text: string; wide?: boolean }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > SHOWN;
  const shown = cut ? text.slice(0, Math.max(text.lastIndexOf("\n", SHOWN), SHOWN / 2)) : text;
  return (
    <>
      <pre aria-label={label} class={wide ? "hex" : undefined}>
        {shown}
      </pre>
      {cut && (
        <p class="clipped muted">
          Showing {shown.length.toLocaleString("en")} of {text.length.toLocaleString("en")} characters.{" "}
          <button onClick={() => setAll(true)}>Show all of the {label.toLowerCase()}</button>
        </p>
      )}
    </>
  );
}
