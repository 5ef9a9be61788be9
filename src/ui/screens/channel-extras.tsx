/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";

type ResponseView = { channel: string; source: "default" | "config" | "api"; response: Record<string, unknown>; answered: number };
type DedupView = { channel: string; enabled: boolean; window?: string; header?: string; dropped: string; last_dropped_at: string | null };

/**
 * A channel's custom response (what its senders get: status, headers, body, delay, a sequence) and
 * its deduplication counter. The response is edited as the JSON the API takes
 * (PUT /v1/channels/{name}/response, docs/misbehave.md); one from the config file is read-only.
 */
export function ChannelExtras({ name }: { name: string }) {
  const [view, setView] = useState<ResponseView | undefined>();
  const [dedup, setDedup] = useState<DedupView | undefined>();
  const [editing, setEditing] = useState<string | undefined>();
  const [message, setMessage] = useState("");
  const load = () => {
    api<ResponseView>("GET", `/channels/${name}/response`).then(setView, (e) => setMessage(e.message));
    api<DedupView>("GET", `/channels/${name}/dedup`).then(setDedup, () => undefined);
  };
  useEffect(load, [name]);
  async function save(text: string | undefined) {
    try {
      if (text === undefined) await api("DELETE", `/channels/${name}/response`);
      else await api("PUT", `/channels/${name}/response`, JSON.parse(text));
      setEditing(undefined);
      setMessage(text === undefined ? "Default response restored." : "Response saved.");
      load();
    } catch (e) {
      setMessage((e as Error).message);
    }
  }
  const custom = view && view.source !== "default";
  return (
    <div class="extras">
      <span>
        {custom ? `${view.source === "config" ? "config" : "custom"} response (${view.answered} answered)` : <span class="muted">default response</span>}
        {dedup?.enabled && <> · dedup: {dedup.dropped} dropped</>}
      </span>{" "}
      {view?.source !== "config" && editing === undefined && (
        <button aria-label={`Edit response of ${name}`} onClick={() => setEditing(JSON.stringify(view?.response ?? {}, null, 2))}>
          Response
        </button>
      )}
      {editing !== undefined && (
        <div>
          <label>
            Response of {name} (JSON)
            <textarea rows={6} cols={40} value={editing} onInput={(e) => setEditing((e.target as HTMLTextAreaElement).value)} />
          </label>
          <button onClick={() => void save(editing)}>Save response of {name}</button>
          {custom && <button onClick={() => void save(undefined)}>Default response</button>}
          <button onClick={() => setEditing(undefined)}>Cancel</button>
        </div>
      )}
      {message && <span role="status"> {message}</span>}
    </div>
  );
}
