/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Channel } from "../api";

type Guard = { name: string; kind: string; settings: Record<string, unknown>; has_secret: boolean; read_only: boolean };
type Field = { key: string; description: string; required: boolean; default?: unknown };
type GuardList = {
  guards: Guard[];
  kinds: { kind: string; secret: string | null; fields: Field[] }[];
  default_guards: { guards: string[]; read_only: boolean };
};

const names = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Guards (admins): define one of any kind (settings as JSON, the secret write-only), assign guards
 * to channels, set those of new channels. The config file's are shown read-only.
 */
export function Guards() {
  const [list, setList] = useState<GuardList | null>(null);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [kind, setKind] = useState("github");
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const load = () =>
    Promise.all([api<GuardList>("GET", "/guards"), api<Channel[]>("GET", "/channels")]).then(
      ([g, c]) => (setList(g), setChannels(c)),
      (e) => setError(e.message),
    );
  useEffect(() => void load(), []);
  const done = (message: string) => (setError(""), setNote(message), load());
  const fail = (e: unknown) => (setNote(""), setError((e as Error).message));

  async function create(e: Event) {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    try {
      const text = String(form.get("settings") ?? "").trim();
      const settings = text ? JSON.parse(text) : {};
      const secret = String(form.get("secret") ?? "");
      await api("POST", "/guards", { name: String(form.get("name")), kind, settings, ...(secret ? { secret } : {}) });
      formEl.reset();
      await done(`Guard ${String(form.get("name"))} created.`);
    } catch (err) {
      fail(err instanceof SyntaxError ? new Error('settings: must be JSON, e.g. {"header": "x-signature"}') : err);
    }
  }
  async function remove(g: Guard) {
    if (!confirm(`Remove guard ${g.name}?`)) return;
    await api("DELETE", `/guards/${g.name}`).then(() => done(`Guard ${g.name} removed.`), fail);
  }
  async function assign(e: Event, channel: string) {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget as HTMLFormElement).get("guards"));
    await api("PUT", `/channels/${channel}/guards`, { guards: names(value) }).then(() => done(`Guards of ${channel} saved.`), fail);
  }
  async function setDefaults(e: Event) {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget as HTMLFormElement).get("guards"));
    await api("PUT", "/default-guards", { guards: names(value) }).then(() => done("Default guards saved."), fail);
  }
  if (!list)
    return (
      <section>
        <h1>Guards</h1>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </section>
    );
  const secretKey = list.kinds.find((k) => k.kind === kind)?.secret ?? null;
  const fields = list.kinds.find((k) => k.kind === kind)?.fields ?? [];
  return (
    <section>
      <h1>Guards</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {note && <p role="status">{note}</p>}
      <div class="scroll">
        <table aria-label="Guards">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>Settings</th>
              <th>Secret</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {list.guards.map((g) => (
              <tr key={g.name}>
                <td>{g.name}</td>
                <td>{g.kind}</td>
                <td>
                  <code>{JSON.stringify(g.settings)}</code>
                </td>
                <td>{g.has_secret ? "set (write-only)" : <span class="muted">none</span>}</td>
                <td>
                  {g.read_only ? (
                    <span class="muted">config file</span>
                  ) : (
                    <button aria-label={`Remove ${g.name}`} onClick={() => remove(g)}>
                      Remove
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.guards.length === 0 && <p class="muted">No guard yet.</p>}
      <form class="card" onSubmit={create}>
        <h2>Define a guard</h2>
        <label>
          Name
          <input name="name" required pattern="[a-z0-9]+([_\-][a-z0-9]+)*" maxLength={64} />
        </label>
        <label>
          Kind
          <select name="kind" value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value)}>
            {list.kinds.map((k) => (
              <option value={k.kind}>{k.kind}</option>
            ))}
          </select>
        </label>
        <label>
          Settings (JSON)
          <textarea name="settings" rows={3} placeholder='{"header": "x-signature", "prefix": "sha256="}' aria-describedby="kind-fields" />
        </label>
        <ul id="kind-fields" class="muted" aria-label={`Settings of ${kind}`}>
          {fields.length === 0 && <li>No settings besides the secret.</li>}
          {fields.map((f) => (
            <li key={f.key}>
              <code>{f.key}</code>
              {f.required ? " (required)" : f.default !== undefined ? ` (default ${JSON.stringify(f.default)})` : ""}: {f.description}
            </li>
          ))}
        </ul>
        {secretKey && (
          <label>
            Secret ({secretKey}; write-only)
            <input name="secret" type="password" autocomplete="off" required />
          </label>
        )}
        <button type="submit">Create guard</button>
      </form>
      <h2>Guards of channels</h2>
      <div class="scroll">
        <table aria-label="Guards of channels">
          <thead>
            <tr>
              <th>Channel</th>
              <th>Guards (comma-separated)</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.name}>
                <td>{c.name}</td>
                <td>
                  <form class="actions" onSubmit={(e) => assign(e, c.name)}>
                    <input name="guards" aria-label={`Guards of ${c.name}`} value={c.guards.join(", ")} />
                    <button type="submit" aria-label={`Save guards of ${c.name}`}>
                      Save
                    </button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <form class="card" onSubmit={setDefaults}>
        <h2>Default guards of new channels</h2>
        <label>
          Default guards
          <input name="guards" value={list.default_guards.guards.join(", ")} disabled={list.default_guards.read_only} />
        </label>
        {list.default_guards.read_only ? <p class="muted">Set in the config file.</p> : <button type="submit">Save defaults</button>}
      </form>
    </section>
  );
}
