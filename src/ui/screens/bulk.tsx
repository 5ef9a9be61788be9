/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { canTransition } from "../../hooks/status";
import { api, query } from "../api";
import { Dialog } from "../parts/dialog";

type Action = "retry" | "discard";
const DONE: Record<Action, string> = { retry: "Retried", discard: "Discarded" };
type Asking = { action: Action; count: number; until: string };

/**
 * Bulk actions over the hooks screen's filter (one status, a channel or all): the server counts
 * the hooks first, the page asks with that number (an in-page dialog), and only then acts (on none caught since).
 */
export function Bulk({ channel, status, onDone }: { channel: string; status: string; onDone: () => void }) {
  const [note, setNote] = useState("");
  const [asking, setAsking] = useState<Asking | undefined>();
  const actions = (Object.keys(DONE) as Action[]).filter((a) => canTransition(a, status));
  if (actions.length === 0) return null;
  async function count(action: Action) {
    try {
      const c = await api<{ count: number; until: string | null }>("GET", `/bulk/${action}${query({ channel, status })}`);
      if (c.count === 0 || !c.until) return setNote(`No ${status} hooks to ${action}.`);
      setAsking({ action, count: c.count, until: c.until });
    } catch (e) {
      setNote((e as Error).message);
    }
  }
  async function run({ action, until }: Asking) {
    setAsking(undefined);
    try {
      const done = await api<{ count: number }>("POST", `/bulk/${action}`, { ...(channel ? { channel } : {}), status, until });
      setNote(`${DONE[action]} ${done.count} hook(s).`);
      onDone();
    } catch (e) {
      setNote((e as Error).message);
    }
  }
  const where = channel ? ` of channel ${channel}` : " of every channel";
  return (
    <div class="actions">
      {actions.map((a) => (
        <button type="button" onClick={() => count(a)}>
          {a === "retry" ? `Retry all ${status}` : `Discard all ${status}`}
        </button>
      ))}
      {note && <span role="status">{note}</span>}
      {asking && (
        <Dialog title={`${asking.action === "retry" ? "Retry" : "Discard"} ${asking.count} ${status} hook(s)${where}?`} onClose={() => setAsking(undefined)}>
          <p>Hooks caught from now on are not touched, and hooks whose status changes meanwhile are skipped.</p>
          <div class="actions">
            <button type="button" class="primary" onClick={() => run(asking)}>
              {asking.action === "retry" ? "Retry them" : "Discard them"}
            </button>
            <button type="button" onClick={() => setAsking(undefined)}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </div>
  );
}
