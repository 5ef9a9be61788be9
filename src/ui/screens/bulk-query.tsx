/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
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
const n = (x: number) => x.toLocaleString("en");
/** The tags typed, split at commas and spaces (the server checks each). */
const tagsOf = (text: string) => [...new Set(text.split(/[\s,]+/).filter(Boolean))];

/**
 * POSTs `body` to /ui/api and saves what it answers as a file named `name` (an export's JSON
 * lines: never shown, only saved); the lines saved. Throws ApiError as api() does.
 */
async function download(path: string, body: unknown, name: string): Promise<number> {
  const res = await fetch(`/ui/api${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    const text = await res.text();
    throw new ApiError(res.status, (text.startsWith("{") ? JSON.parse(text)?.message : undefined) ?? `HTTP ${res.status}`);
  }
  const blob = await res.blob();
  const lines = (await blob.text()).split("\n").filter(Boolean).length;
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return lines;
}

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
  const [exported, setExported] = useState<number | undefined>();
  const [asking, setAsking] = useState<Asking | undefined>();
  const [job, setJob] = useState<Job | undefined>();
  const [note, setNote] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => (setSelected(undefined), setNote("")), [query]);

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
    setExported(undefined);
    try {
      if (action === "export") return setExported(await download("/hooks/bulk", body(), "mailroom-hooks.jsonl"));
      const started = await api<Job>("POST", "/hooks/bulk", body());
      setJob(started);
      void follow(started.id);
    } catch (e) {
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
              Tags <input required value={tags} onInput={(e) => setTags((e.target as HTMLInputElement).value)} placeholder="billing, big" />
            </label>
          )}
          {action === "send" && (
            <label>
              URL{" "}
              <input type="url" required value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} placeholder="http://localhost:3000/hooks" />
            </label>
          )}
          <button type="submit" class="primary" disabled={job?.state === "running"}>
            Apply
          </button>
          <button type="button" onClick={() => setSelected(undefined)}>
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
        <p class="bulk-progress" role="status">
          {n(exported)} hook(s) exported to mailroom-hooks.jsonl.
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
              ? "None of the matching hooks is in a status this action applies to."
              : "Hooks caught from now on are not touched, and hooks whose status changes meanwhile are skipped."}
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
