/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { link } from "../router";

export type Forward = {
  name: string;
  channel: string;
  url: string;
  headers: Record<string, string>;
  max_attempts: number;
  backoff: { initial: string; max: string };
  timeout: string;
};

/** "Name: value" lines to headers; throws on a line without a colon. */
function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)) {
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`headers: "${line}" is not "Name: value"`);
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

/**
 * Forward handlers of one channel (admins): list, add (URL, headers, max attempts, backoff),
 * remove. Header values are sent, never shown (they often hold a token). Configured handlers live in
 * the config file and are not listed here.
 */
export function ChannelHandlers({ channel }: { channel: string }) {
  const [handlers, setHandlers] = useState<Forward[] | null>(null);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const load = () => api<Forward[]>("GET", `/channels/${channel}/handlers`).then(setHandlers, (e) => setError(e.message));
  useEffect(() => void load(), [channel]);
  async function add(e: Event) {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    try {
      const backoff = { ...(text("initial") ? { initial: text("initial") } : {}), ...(text("max") ? { max: text("max") } : {}) };
      await api("POST", `/channels/${channel}/handlers`, {
        name: text("name"),
        url: text("url"),
        headers: headersOf(String(form.get("headers") ?? "")),
        ...(text("max_attempts") ? { max_attempts: Number(text("max_attempts")) } : {}),
        ...(Object.keys(backoff).length > 0 ? { backoff } : {}),
      });
      formEl.reset();
      setError("");
      setNote(`Forward handler ${text("name")} added.`);
      await load();
    } catch (err) {
      setNote("");
      setError((err as Error).message);
    }
  }
  async function remove(h: Forward) {
    if (!confirm(`Remove forward handler ${h.name} of ${channel}?`)) return;
    try {
      await api("DELETE", `/channels/${channel}/handlers/${h.name}`);
      setNote(`Forward handler ${h.name} removed.`);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <section>
      <p>
        <a href="/ui/channels" onClick={link}>
          ← Channels
        </a>
      </p>
      <h1>Forward handlers of {channel}</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {note && <p role="status">{note}</p>}
      <div class="scroll">
        <table aria-label="Forward handlers">
          <thead>
            <tr>
              <th>Name</th>
              <th>URL</th>
              <th>Headers</th>
              <th>Max attempts</th>
              <th>Backoff</th>
              <th>Timeout</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {(handlers ?? []).map((h) => (
              <tr key={h.name}>
                <td>{h.name}</td>
                <td>
                  <code>{h.url}</code>
                </td>
                <td>{Object.keys(h.headers).join(", ") || <span class="muted">none</span>}</td>
                <td>{h.max_attempts}</td>
                <td>
                  {h.backoff.initial} to {h.backoff.max}
                </td>
                <td>{h.timeout}</td>
                <td>
                  <button aria-label={`Remove ${h.name}`} onClick={() => remove(h)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {handlers?.length === 0 && <p class="muted">No forward handler added here: hooks of {channel} get only the config file's handlers.</p>}
      <form class="card" onSubmit={add}>
        <h2>Add a forward handler</h2>
        <label>
          Name
          <input name="name" required pattern="[a-z0-9]+([_\-][a-z0-9]+)*" maxLength={64} />
        </label>
        <label>
          URL
          <input name="url" type="url" required placeholder="https://example.com/hooks" />
        </label>
        <label>
          Headers (one "Name: value" a line; values are not shown again)
          <textarea name="headers" rows={3} />
        </label>
        <label>
          Max attempts
          <input name="max_attempts" type="number" min="1" step="1" />
        </label>
        <label>
          Backoff initial
          <input name="initial" placeholder="e.g. 5s" />
        </label>
        <label>
          Backoff max
          <input name="max" placeholder="e.g. 10m" />
        </label>
        <button type="submit">Add handler</button>
      </form>
    </section>
  );
}
