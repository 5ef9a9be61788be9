/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { type AlertRuleInfo, api } from "../api";
import { useConfirm } from "../parts/dialog";
import { Notice } from "../parts/notice";
import { AlertRuleForm, RULE_KINDS } from "./alert-rule-form";

/** What a rule watches, in a few words: its keys besides name, kind and notify. */
function what(r: AlertRuleInfo): string {
  const parts = [`channels ${r.channels.join(", ")}`];
  if (r.query) parts.push(`query ${r.query}`);
  if (r.event_types) parts.push(`event types ${r.event_types.join(", ")}`);
  if (r.for) parts.push(`for ${r.for}`);
  if (r.threshold !== undefined) parts.push(`more than ${r.threshold}`);
  if (r.window) parts.push(`in ${r.window}`);
  if (r.schedule) parts.push(`within ${r.schedule}`);
  if (r.reasons) parts.push(`reasons ${r.reasons.join(", ")}`);
  if (r.handlers) parts.push(`handlers ${r.handlers.join(", ")}`);
  if (r.repeat) parts.push(`reminded every ${r.repeat}`);
  return parts.join("; ");
}

/**
 * The alert rules (admins): the config file's, read-only, and those made here, which can be
 * changed and deleted. A rule takes effect at once, on every instance.
 */
export function AlertRules() {
  const [list, setList] = useState<AlertRuleInfo[] | null>(null);
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  const [editing, setEditing] = useState<AlertRuleInfo | undefined>();
  const [ask, asking] = useConfirm();
  const load = () => api<AlertRuleInfo[]>("GET", "/alerts").then(setList, (e) => setError(e.message));
  useEffect(() => void load(), []);
  async function remove(r: AlertRuleInfo) {
    if (!(await ask(`Delete rule ${r.name}?`, "It stops at once; its open issues are resolved and its notifiers told.", "Delete the rule"))) return;
    try {
      await api("DELETE", `/alerts/${encodeURIComponent(r.name)}`);
      setNote(`Rule ${r.name} was deleted.`);
      setError("");
    } catch (err) {
      setError((err as Error).message);
    }
    await load();
  }
  const saved = (verb: string) => async (name: string) => {
    setEditing(undefined);
    setNote(`Rule ${name} was ${verb}.`);
    setError("");
    await load();
  };
  return (
    <section>
      <h1>Alert rules</h1>
      <p class="muted">
        Rules open an issue when hooks stop, fail or change (docs/alerts.md). Those of the config file (<code>[[alerts]]</code>) are changed there; those made
        here take effect at once.
      </p>
      <Notice error={error} note={note} />
      {list?.length === 0 && <p class="muted">No rules yet.</p>}
      {list && list.length > 0 && (
        /* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe-core's scrollable-region-focusable) */
        <section class="scroll" tabIndex={0} aria-label="Alert rules, scrollable">
          <table class="cards" aria-label="Alert rules">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Watches</th>
                <th>Notifies</th>
                <th>From</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.name}>
                  <td data-label="Name">{r.name}</td>
                  <td data-label="Kind">{RULE_KINDS[r.kind]?.split(":")[0] ?? r.kind}</td>
                  <td data-label="Watches">{what(r)}</td>
                  <td data-label="Notifies">{r.notify.length > 0 ? r.notify.join(", ") : <span class="muted">nobody</span>}</td>
                  <td data-label="From">{r.source === "config" ? "config file" : (r.updated_by ?? "")}</td>
                  <td class="row-actions">
                    {r.source === "api" && (
                      <>
                        <button type="button" onClick={() => setEditing(r)} aria-label={`Change rule ${r.name}`}>
                          Change
                        </button>
                        <button type="button" class="danger" onClick={() => remove(r)} aria-label={`Delete rule ${r.name}`}>
                          Delete
                        </button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {editing ? (
        <AlertRuleForm key={editing.name} editing={editing} onSaved={saved("changed")} onCancel={() => setEditing(undefined)} />
      ) : (
        <AlertRuleForm key="new" onSaved={saved("made")} />
      )}
      {asking}
    </section>
  );
}
