/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type Channel } from "../api";
import { useConfirm } from "../parts/dialog";
import { Notice } from "../parts/notice";
import type { GuardKind } from "../guard-fields";
import { GuardForm } from "./guard-form";

type Guard = { name: string; kind: string; settings: Record<string, unknown>; has_secret: boolean; read_only: boolean };
type GuardList = { guards: Guard[]; kinds: GuardKind[]; default_guards: { guards: string[]; read_only: boolean } };

const names = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Guards (admins): define one of any kind (the fields of its kind, the secret write-only), assign guards
 * to channels, set those of new channels. The config file's are shown read-only.
 */
export function Guards() {
  const [list, setList] = useState<GuardList | null>(null);
  const [channels, setChannels] = useState<Channel[]>([]);
  const [ask, asking] = useConfirm();
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

  async function remove(g: Guard) {
    if (!(await ask(`Remove guard ${g.name}?`, "Channels that list it must drop it first: a guard in use cannot be removed.", "Remove the guard"))) return;
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
        <Notice error={error} />
      </section>
    );
  return (
    <section>
      <h1>Guards</h1>
      <Notice error={error} note={note} />
      <div class="scroll">
        <table class="cards" aria-label="Guards">
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
                <td data-label="Name">{g.name}</td>
                <td data-label="Kind">{g.kind}</td>
                <td data-label="Settings">
                  {Object.entries(g.settings)
                    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : String(v)}`)
                    .join(" · ") || <span class="muted">defaults</span>}
                </td>
                <td data-label="Secret">{g.has_secret ? "set (write-only)" : <span class="muted">none</span>}</td>
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
      {asking}
      <GuardForm kinds={list.kinds} onCreated={(name) => done(`Guard ${name} created.`)} />
      <h2>Guards of channels</h2>
      <div class="scroll">
        <table class="cards" aria-label="Guards of channels">
          <thead>
            <tr>
              <th>Channel</th>
              <th>Guards (comma-separated)</th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => (
              <tr key={c.name}>
                <td data-label="Channel">{c.name}</td>
                <td data-label="Guards (comma-separated)">
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
