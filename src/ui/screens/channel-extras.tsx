/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { Dialog } from "../parts/dialog";
import { type ResponseSetting, ResponseForm } from "./response-form";

type ResponseView = { channel: string; source: "default" | "config" | "api"; response: Record<string, unknown>; answered: number };
type DedupView = { channel: string; enabled: boolean; window?: string; header?: string; dropped: string; last_dropped_at: string | null };

/**
 * A channel's custom response (what its senders get: status, headers, body, delay, a sequence) and
 * its deduplication counter. The response is edited in a form (PUT /v1/channels/{name}/response,
 * docs/misbehave.md); one from the config file is read-only.
 */
export function ChannelExtras({ name }: { name: string }) {
  const [view, setView] = useState<ResponseView | undefined>();
  const [dedup, setDedup] = useState<DedupView | undefined>();
  const [editing, setEditing] = useState(false);
  const [message, setMessage] = useState("");
  const load = () => {
    api<ResponseView>("GET", `/channels/${name}/response`).then(setView, (e) => setMessage(e.message));
    api<DedupView>("GET", `/channels/${name}/dedup`).then(setDedup, () => undefined);
  };
  useEffect(load, [name]);
  async function save(response: ResponseSetting | undefined) {
    if (response === undefined) await api("DELETE", `/channels/${name}/response`);
    else await api("PUT", `/channels/${name}/response`, response);
    setEditing(false);
    setMessage(response === undefined ? "Default response restored." : "Response saved.");
    load();
  }
  const custom = view && view.source !== "default";
  return (
    <div class="extras">
      <span>
        {custom ? `${view.source === "config" ? "config" : "custom"} response (${view.answered} answered)` : <span class="muted">default response</span>}
        {dedup?.enabled && <> · dedup: {dedup.dropped} dropped</>}
      </span>{" "}
      {view?.source !== "config" && (
        <button aria-label={`Edit response of ${name}`} onClick={() => setEditing(true)}>
          Response
        </button>
      )}
      {editing && view && (
        <Dialog title={`What senders of ${name} get`} onClose={() => setEditing(false)}>
          <ResponseForm channel={name} value={view.response as ResponseSetting} onSave={save} onCancel={() => setEditing(false)} />
          {custom && (
            <button type="button" onClick={() => save(undefined).catch((e) => setMessage((e as Error).message))}>
              Back to the default response
            </button>
          )}
        </Dialog>
      )}
      {message && <span role="status"> {message}</span>}
    </div>
  );
}
