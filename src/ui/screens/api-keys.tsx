/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type ApiKey } from "../api";
import { Time } from "../parts/time";
import { useConfirm } from "../parts/dialog";
import { Notice } from "../parts/notice";
import { ShareLinks } from "../parts/share-links";

const SOURCES = { config: "config file", local: "this machine's CLI", dashboard: "dashboard" } as const;

/** API keys (admins): create with a label (the token is shown once), list with last use, revoke; and the share links, to revoke. */
export function ApiKeys() {
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [created, setCreated] = useState<{ label: string; token: string } | null>(null);
  const [error, setError] = useState("");
  const [ask, asking] = useConfirm();
  const load = () => api<ApiKey[]>("GET", "/api-keys").then(setKeys, (e) => setError(e.message));
  useEffect(() => void load(), []);
  async function create(e: Event) {
    e.preventDefault();
    const formEl = e.currentTarget as HTMLFormElement;
    const form = new FormData(formEl);
    const label = String(form.get("label"));
    // A relay key: the channels it may relay (mailroom listen), and nothing else.
    const channels = String(form.get("channels") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    // Or a key that sees (reads and acts on) only these channels: glob patterns.
    const sees = String(form.get("sees") ?? "")
      .split(/[\s,]+/)
      .filter(Boolean);
    const body =
      channels.length > 0 ? { label, scopes: ["relay"], channels } : sees.length > 0 ? { label, scopes: ["read", "act"], channels: sees } : { label };
    try {
      const key = await api<ApiKey & { token: string }>("POST", "/api-keys", body);
      setCreated({ label: key.label, token: key.token });
      formEl.reset();
      setError("");
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }
  async function revoke(k: ApiKey) {
    if (!(await ask(`Revoke API key ${k.label}?`, "Callers using it get 401 from now on.", "Revoke the key"))) return;
    await api("DELETE", `/api-keys/${encodeURIComponent(k.label)}`).then(load, (e) => setError(e.message));
    if (created?.label === k.label) setCreated(null);
  }
  return (
    <section>
      <h1>API keys</h1>
      {asking}
      <Notice error={error} />
      {created && (
        <div class="card" role="status">
          <p>
            API key <strong>{created.label}</strong> created. Copy its token now: it is not shown again.
          </p>
          <p>
            <code aria-label="New token">{created.token}</code> <button onClick={() => navigator.clipboard?.writeText(created.token)}>Copy token</button>
          </p>
        </div>
      )}
      {/* Wider than a phone with the scopes column: a region the keyboard can scroll. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe-core's scrollable-region-focusable) */}
      <section class="scroll" tabIndex={0} aria-label="API keys, scrollable">
        <table class="cards" aria-label="API keys">
          <thead>
            <tr>
              <th>Label</th>
              <th>From</th>
              <th>Access</th>
              <th>Created</th>
              <th>Last use</th>
              <th></th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.label}>
                <td data-label="Label">{k.label}</td>
                <td data-label="From">{SOURCES[k.source]}</td>
                <td data-label="Access">{k.scopes ? `relay: ${(k.channels ?? []).join(", ")}` : "full"}</td>
                <td data-label="Created">{k.created_at ? <Time at={k.created_at} /> : <span class="muted">-</span>}</td>
                <td data-label="Last use">
                  <Time at={k.last_used_at} />
                </td>
                <td>
                  {k.source === "dashboard" ? (
                    <button onClick={() => revoke(k)} aria-label={`Revoke ${k.label}`}>
                      Revoke
                    </button>
                  ) : (
                    <span class="muted">read-only</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <form class="card" onSubmit={create}>
        <h2>Create an API key</h2>
        <p class="muted">
          Events of its callers record <code>api:&lt;label&gt;</code>. Only a hash of the token is stored.
        </p>
        <label>
          Label
          <input name="label" required pattern="[a-z0-9]+([_\-][a-z0-9]+)*" maxLength={64} />
        </label>
        <label>
          Relay only these channels (optional)
          <input name="channels" placeholder="stripe, github" aria-describedby="relay-help" />
        </label>
        <p class="muted" id="relay-help">
          With channels, the key relays them to <code>mailroom listen</code> and gets 403 everywhere else; without, it has full access.
        </p>
        <label>
          Or see only these channels (optional)
          <input name="sees" placeholder="stripe-*, github" aria-describedby="sees-help" />
        </label>
        <p class="muted" id="sees-help">
          The key reads and acts on the hooks of these channels (<code>*</code> for any characters) and sees nothing else.
        </p>
        <button type="submit">Create key</button>
      </form>
      <ShareLinks />
    </section>
  );
}
