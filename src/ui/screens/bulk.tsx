/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { canTransition } from "../../hooks/status";
import { api, query } from "../api";

type Action = "retry" | "discard";
const DONE: Record<Action, string> = { retry: "Retried", discard: "Discarded" };

/**
 * Bulk actions over the hooks screen's filter (one status, a channel or all): the server counts
 * the hooks first, the page asks with that number, and only then acts (on none caught since).
 */
export function Bulk({ channel, status, onDone }: { channel: string; status: string; onDone: () => void }) {
  const [note, setNote] = useState("");
  const actions = (Object.keys(DONE) as Action[]).filter((a) => canTransition(a, status));
  if (actions.length === 0) return null;
  async function run(action: Action) {
    try {
      const c = await api<{ count: number; until: string | null }>("GET", `/bulk/${action}${query({ channel, status })}`);
      if (c.count === 0 || !c.until) return setNote(`No ${status} hooks to ${action}.`);
      const where = channel ? ` of channel ${channel}` : " of every channel";
      if (!confirm(`${action === "retry" ? "Retry" : "Discard"} ${c.count} ${status} hook(s)${where}?`)) return;
      const done = await api<{ count: number }>("POST", `/bulk/${action}`, { ...(channel ? { channel } : {}), status, until: c.until });
      setNote(`${DONE[action]} ${done.count} hook(s).`);
      onDone();
    } catch (e) {
      setNote((e as Error).message);
    }
  }
  return (
    <div class="actions">
      {actions.map((a) => (
        <button onClick={() => run(a)}>{a === "retry" ? `Retry all ${status}` : `Discard all ${status}`}</button>
      ))}
      {note && <span role="status">{note}</span>}
    </div>
  );
}
