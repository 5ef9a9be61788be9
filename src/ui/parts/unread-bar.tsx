/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { link } from "../router";
import { useUnread } from "../unread";

type Job = { id: string; state: string; total: number; done: number; skipped: number; failed: number };

/**
 * The hooks screen's unread line: how many hooks the user has not opened (of the channel filtered
 * on, else of all), a link that shows only those (`is:unread` added to the search), and "Mark all
 * read", a bulk mark-read of the screen's whole query (docs/bulk.md) followed to its end.
 */
export function UnreadBar({ channel, query, onDone }: { channel: string; query: string; onDone: () => void }) {
  const unread = useUnread();
  const count = channel ? (unread.channels[channel] ?? 0) : unread.total;
  const [job, setJob] = useState<Job | undefined>();
  const [error, setError] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const unreadOnly = /(^|\s)is:unread(\s|$)/.test(query);
  const follow = async (id: string) => {
    const now = await api<Job>("GET", `/hooks/bulk/${id}`).catch(() => undefined);
    if (now) setJob(now);
    if (!now || now.state === "running") timer.current = setTimeout(() => void follow(id), 400);
    else {
      dispatchEvent(new Event("unread-changed"));
      onDone();
    }
  };
  const markAll = async () => {
    setError("");
    try {
      const started = await api<Job>("POST", "/hooks/bulk", { query: unreadOnly ? query : `${query} is:unread`.trim(), action: "mark-read" });
      setJob(started);
      await follow(started.id);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const running = job?.state === "running";
  const params = new URLSearchParams(location.search);
  params.set("q", `${params.get("q") ?? ""} is:unread`.trim());
  params.delete("after");
  return (
    <div class="unread-bar">
      <span class="unread-count" role="status">
        {count === 0 ? "All read" : `${count.toLocaleString("en")} unread`}
        {channel ? ` in ${channel}` : ""}
      </span>
      {count > 0 && !unreadOnly && (
        <a href={`/ui/hooks?${params}`} onClick={link}>
          Show unread
        </a>
      )}
      <button type="button" disabled={running || count === 0} onClick={markAll} title="Marks every hook this search matches read for you">
        Mark all read
      </button>
      {job && (
        <span class="muted" role="status">
          {running ? `Marking read: ${job.done + job.skipped} of ${job.total}` : job.state === "done" ? `${job.done} marked read` : `Marking read ${job.state}`}
        </span>
      )}
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
