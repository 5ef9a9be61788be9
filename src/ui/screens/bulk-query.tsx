/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { download } from "../parts/download";
import { Dialog } from "../parts/dialog";

type Job = { id: string; action: string; state: string; total: number; done: number; skipped: number; failed: number; message: string };
type Asking = { action: string; count: number };

const LABELS: Record<string, string> = {
  retry: "Retry",
  redeliver: "Redeliver",
  discard: "Discard",
  delete: "Delete",
  tag: "Tag",
  untag: "Untag",
  "mark-read": "Mark read",
  export: "Export",
  send: "Send to a URL",
};
const PAST: Record<string, string> = {
  retry: "retried",
  redeliver: "redelivered",
  discard: "discarded",
  delete: "deleted",
  tag: "tagged",
  untag: "untagged",
  "mark-read": "marked read",
  send: "sent",
};
const TAGGING = new Set(["tag", "untag"]);
/** The actions that apply to some statuses only (BULK_ACTIONS' `from`): a hook moved meanwhile is skipped. */
const BY_STATUS = new Set(["retry", "discard"]);
/** Past this many, the dialog points an export to the command line, which streams it to a file. */
const LARGE_EXPORT = 100_000;
const n = (x: number) => x.toLocaleString("en");
/** The tags typed, split at commas and spaces (the server checks each). */
const tagsOf = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

/**
 * "Select all N matching": a bulk action (docs/bulk.md) on every hook the search matches, not only
 * the rows shown. The server counts first (a dry run), the page asks with that number, then
 * follows the job: a progress line, and Cancel while it runs. Export is no job: the server answers
 * the hooks as JSON lines, saved as a file.
 */
export function BulkQuery({ query, admin, onDone }: { query: string; admin: boolean; onDone: () => void }) {
  const [selected, setSelected] = useState<number | undefined>();
  const [action, setAction] = useState("retry");
  const [url, setUrl] = useState("");
  const [tags, setTags] = useState("");
  const [exported, setExported] = useState<number | "running" | undefined>();
  const [asking, setAsking] = useState<Asking | undefined>();
  const [job, setJob] = useState<Job | undefined>();
  const [note, setNote] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  /** Back to "Select all matching": what the lines said was of another selection. A running job is still followed. */
  const clear = () => {
    setSelected(undefined);
    setNote("");
    if (exported !== "running") setExported(undefined);
    if (job?.state !== "running") setJob(undefined);
  };
  useEffect(clear, [query]);
  const busy = exported === "running" || job?.state === "running";

  const body = () => ({ query, action, ...(action === "send" ? { url } : TAGGING.has(action) ? { tags: tagsOf(tags) } : {}) });
  const fail = (e: unknown) => setNote((e as Error).message);
  async function selectAll() {
    try {
      setSelected((await api<{ count: number }>("POST", "/hooks/bulk", { query, action: "export", dry_run: true })).count);
    } catch (e) {
      fail(e);
    }
  }
  async function ask() {
    setNote("");
    if (TAGGING.has(action) && tagsOf(tags).length === 0) return setNote("tags: type at least one tag");
    try {
      setAsking({ action, count: (await api<{ count: number }>("POST", "/hooks/bulk", { ...body(), dry_run: true })).count });
    } catch (e) {
      fail(e);
    }
  }
  async function follow(id: string) {
    const now = await api<Job>("GET", `/hooks/bulk/${id}`).catch(() => undefined);
    if (now) setJob(now);
    if (!now || now.state === "running") timer.current = setTimeout(() => follow(id), 400);
    else onDone();
  }
  async function run() {
    setAsking(undefined);
    if (busy) return;
    setExported(undefined);
    if (job?.state !== "running") setJob(undefined);
    try {
      if (action === "export") {
        setExported("running");
        return setExported(await download("/hooks/bulk", body(), "mailroom-hooks.jsonl"));
      }
      const started = await api<Job>("POST", "/hooks/bulk", body());
      setJob(started);
      void follow(started.id);
    } catch (e) {
      if (action === "export") setExported(undefined);
      fail(e);
    }
  }
  async function cancel() {
    if (job) setJob(await api<Job>("DELETE", `/hooks/bulk/${job.id}`).catch(() => job));
  }

  const actions = Object.keys(LABELS).filter((a) => a !== "send" || admin);
  const handled = job ? job.done + job.skipped + job.failed : 0;
  return (
    <div class="bulk-query">
      {selected === undefined ? (
        <button type="button" onClick={selectAll}>
          Select all matching
        </button>
      ) : (
        <form
          class="actions"
          onSubmit={(e) => {
            e.preventDefault();
            void ask();
          }}
        >
          <span>All {n(selected)} matching selected.</span>
          <label>
            Action{" "}
            <select value={action} onChange={(e) => setAction((e.target as HTMLSelectElement).value)}>
              {actions.map((a) => (
                <option value={a}>{LABELS[a]}</option>
              ))}
            </select>
          </label>
          {TAGGING.has(action) && (
            <label>
              {action === "tag" ? "Tags to add" : "Tags to remove"}{" "}
              <input
                required
                value={tags}
                onInput={(e) => setTags((e.target as HTMLInputElement).value)}
                placeholder="billing, big"
                aria-describedby="bulk-tags-hint"
                aria-invalid={note.includes("tags:") ? "true" : undefined}
              />{" "}
              <small id="bulk-tags-hint">separated by commas or spaces</small>
            </label>
          )}
          {action === "send" && (
            <label>
              URL{" "}
              <input type="url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} placeholder="http://localhost:3000/hooks" />
            </label>
          )}
          <button type="submit" class="primary" disabled={busy}>
            Apply
          </button>
          <button type="button" onClick={clear}>
            Clear
          </button>
        </form>
      )}
      {job && (
        <p class="bulk-progress" role="status">
          <progress max={Math.max(job.total, 1)} value={job.total === 0 ? 1 : handled} aria-label={`${LABELS[job.action] ?? job.action} progress`} />{" "}
          {n(job.done)} of {n(job.total)} {PAST[job.action] ?? job.action}
          {job.skipped > 0 && `, ${n(job.skipped)} skipped`}
          {job.failed > 0 && `, ${n(job.failed)} failed`}
          {job.state !== "running" && ` · ${job.state}`}
          {job.state === "running" && (
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          )}
        </p>
      )}
      {exported !== undefined && (
        <p class="bulk-progress" role="status" aria-busy={exported === "running"}>
          {exported === "running" ? `Exporting ${n(selected ?? 0)} hook(s)…` : `${n(exported)} hook(s) exported to mailroom-hooks.jsonl.`}
        </p>
      )}
      {note && (
        <p class="error" role="alert">
          {note}
        </p>
      )}
      {asking && (
        <Dialog title={`${LABELS[asking.action]}: ${n(asking.count)} hook(s)?`} onClose={() => setAsking(undefined)}>
          <p>
            {asking.count === 0
              ? BY_STATUS.has(asking.action)
                ? "None of the matching hooks is in a status this action applies to."
                : "No hook matches."
              : BY_STATUS.has(asking.action)
                ? "Hooks caught from now on are not touched, and hooks whose status changes meanwhile are skipped."
                : "Hooks caught from now on are not touched."}
            {asking.action === "export" && asking.count > LARGE_EXPORT && (
              <> The browser holds the file until it is saved: for this many, mailroom hooks bulk export streams them to a file.</>
            )}
          </p>
          <div class="actions">
            <button type="button" class="primary" disabled={asking.count === 0} onClick={run}>
              {LABELS[asking.action]} them
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
