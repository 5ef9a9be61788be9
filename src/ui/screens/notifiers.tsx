/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api, type NotifierInfo } from "../api";
import { Notice } from "../parts/notice";
import { Time } from "../parts/time";

const KINDS = { slack: "Slack", discord: "Discord", teams: "Microsoft Teams", webhook: "Webhook (Standard Webhooks)", email: "E-mail" } as const;

/**
 * The alerts' notifiers (admins): where each sends (no secret is ever sent to the browser), what it
 * sent and gave up on, its last error, and "Send a test". Notifiers are set in the config file.
 */
export function Notifiers() {
  const [list, setList] = useState<NotifierInfo[] | null>(null);
  const [error, setError] = useState("");
  const [result, setResult] = useState<{ name: string; sent: boolean; error: string | null } | null>(null);
  const [sending, setSending] = useState("");
  const load = () => api<NotifierInfo[]>("GET", "/notifiers").then(setList, (e) => setError(e.message));
  useEffect(() => void load(), []);
  async function test(name: string) {
    setSending(name);
    setResult(null);
    try {
      setResult(await api<{ name: string; sent: boolean; error: string | null }>("POST", `/notifiers/${encodeURIComponent(name)}/test`));
      setError("");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSending("");
      await load();
    }
  }
  return (
    <section>
      <h1>Notifiers</h1>
      <p class="muted">
        Where alert rules send their issues: the <code>[[notifiers]]</code> of the config file (docs/notifiers.md). Their URLs' paths, secrets and passwords
        stay on the server.
      </p>
      <Notice error={error} />
      {result && (
        <p class={result.sent ? "card" : "card error"} role="status">
          {result.sent ? `A test notice was sent through ${result.name}.` : `${result.name} could not send the test: ${result.error}`}
        </p>
      )}
      {list?.length === 0 && <p class="muted">No notifiers are configured.</p>}
      {list && list.length > 0 && (
        /* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe-core's scrollable-region-focusable) */
        <section class="scroll" tabIndex={0} aria-label="Notifiers, scrollable">
          <table class="cards" aria-label="Notifiers">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Sends to</th>
                <th>Sent</th>
                <th>Failed</th>
                <th>Queued</th>
                <th>Last error</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {list.map((n) => (
                <tr key={n.name}>
                  <td data-label="Name">{n.name}</td>
                  <td data-label="Kind">{KINDS[n.kind] ?? n.kind}</td>
                  <td data-label="Sends to">
                    <code>{n.target}</code>
                  </td>
                  <td data-label="Sent">{n.sent}</td>
                  <td data-label="Failed">{n.failed}</td>
                  <td data-label="Queued">{n.queued}</td>
                  <td data-label="Last error">
                    {n.last_error ? (
                      <>
                        {n.last_error} {n.last_error_at && <Time at={n.last_error_at} />}
                      </>
                    ) : (
                      <span class="muted">none</span>
                    )}
                  </td>
                  <td>
                    <button type="button" onClick={() => test(n.name)} disabled={sending !== ""} aria-label={`Send a test through ${n.name}`}>
                      {sending === n.name ? "Sending…" : "Send a test"}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </section>
  );
}
