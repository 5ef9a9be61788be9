/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { canTransition } from "../../hooks/status";
import { api, type Hook } from "../api";
import { Dialog } from "../parts/dialog";

type Transition = "process" | "fail" | "discard" | "retry" | "redeliver";

/**
 * What can be done to a hook: mark handled, fail (with a reason), discard, retry, redeliver (every
 * handler of the channel again), delete (asked first), and edit and send. Fail and delete ask in
 * an in-page dialog, never the browser's prompt() or confirm(). Save as fixture downloads the hook
 * as a fixture file (docs/fixtures.md).
 */
export function HookActions({
  hook,
  onChanged,
  onDeleted,
  onEdit,
  onError,
}: {
  hook: Hook;
  onChanged: (h: Hook) => void;
  onDeleted: () => void;
  onEdit: () => void;
  onError: (message: string) => void;
}) {
  const [asking, setAsking] = useState<"fail" | "delete" | undefined>();
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const s = hook.status;
  async function run(what: Transition, body?: unknown) {
    setBusy(true);
    try {
      onChanged(await api<Hook>("POST", `/hooks/${hook.id}/${what}`, body));
      setAsking(undefined);
    } catch (e) {
      onError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  async function remove() {
    setBusy(true);
    try {
      await api("DELETE", `/hooks/${hook.id}`);
      setAsking(undefined);
      onDeleted();
    } catch (e) {
      onError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div class="actions">
      {canTransition("process", s) && (
        <button type="button" class="primary" onClick={() => run("process")}>
          Mark handled
        </button>
      )}
      {canTransition("fail", s) && (
        <button type="button" onClick={() => (setReason(""), setAsking("fail"))}>
          Fail
        </button>
      )}
      {canTransition("discard", s) && (
        <button type="button" onClick={() => run("discard")}>
          Discard
        </button>
      )}
      {canTransition("retry", s) && (
        <button type="button" onClick={() => run("retry")}>
          Retry
        </button>
      )}
      <button type="button" title="Run every handler of the channel again" onClick={() => run("redeliver")}>
        Redeliver
      </button>
      <button type="button" onClick={onEdit}>
        Edit and send
      </button>
      {/* The server makes the file from the stored bytes, scrubbed (fixtures/routes.ts); the browser saves it under the name it gives. */}
      <a
        class="button"
        href={`/ui/api/hooks/${encodeURIComponent(hook.id)}/fixture`}
        download
        title="A scrubbed copy for your repository: mailroom trigger --fixture sends it"
      >
        Save as fixture
      </a>
      <button type="button" class="danger" onClick={() => setAsking("delete")}>
        Delete
      </button>
      {asking === "fail" && (
        <Dialog title="Mark this hook failed" onClose={() => setAsking(undefined)}>
          <form method="dialog" onSubmit={(e) => (e.preventDefault(), run("fail", { message: reason }))}>
            <label>
              Why did it fail?
              <textarea rows={3} maxLength={4096} value={reason} onInput={(e) => setReason((e.target as HTMLTextAreaElement).value)} />
            </label>
            <div class="actions">
              <button type="submit" class="danger solid" disabled={busy}>
                Fail the hook
              </button>
              <button type="button" onClick={() => setAsking(undefined)}>
                Cancel
              </button>
            </div>
          </form>
        </Dialog>
      )}
      {asking === "delete" && (
        <Dialog title="Delete this hook?" onClose={() => setAsking(undefined)}>
          <p>
            Hook <code>{hook.id}</code> of <strong>{hook.channel}</strong> and its events go for good.
          </p>
          <div class="actions">
            <button type="button" class="danger solid" disabled={busy} onClick={remove}>
              Delete the hook
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
