/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, query } from "../api";
import { useStream } from "../live";
import { Time } from "../parts/time";
import { Notice } from "../parts/notice";
import { link, navigate } from "../router";
import { visible } from "../format";
import { Bulk } from "./bulk";

/** An issue as GET /ui/api/issues answers it (alerts/model.ts Issue). */
export type Issue = {
  id: string;
  rule: string;
  kind: string;
  scope: string;
  summary: string;
  state: "open" | "acknowledged" | "resolved";
  opened_at: string;
  last_seen_at: string;
  resolved_at: string | null;
  count: number;
  hooks_query: string | null;
  history: { at: string; action: string; by: string }[];
};

const STATES = ["open", "acknowledged", "resolved"] as const;

/**
 * The alert rules' issues, newest first, by state (all by default), followed live: what happened,
 * since when, how many times, who did what; acknowledge and resolve; the hooks behind an issue,
 * and for hooks that failed, retry them all.
 */
export function Issues({ url }: { url: URL }) {
  const state = url.searchParams.get("state") ?? "";
  const [issues, setIssues] = useState<Issue[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState("");
  const ask = useLatest(state);
  const load = () => {
    const answer = ask();
    return api<Issue[]>("GET", `/issues${query({ state })}`).then(
      (page) => answer.take() && (setIssues(page), setLoaded(true), setError(""), dispatchEvent(new Event("issues-changed"))),
      (e) => answer.take() && (setError(e.message), setLoaded(true)),
    );
  };
  useEffect(() => void load(), [state]);
  useStream({}, { issue: () => void load(), reset: load }, [state]);
  async function act(issue: Issue, action: "ack" | "resolve") {
    try {
      await api("POST", `/issues/${issue.id}/${action}`);
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  }
  return (
    <section>
      <h1>Issues</h1>
      <div class="filters">
        <label>
          State
          <select
            value={state}
            onChange={(e) => navigate(`/ui/issues${(e.target as HTMLSelectElement).value ? `?state=${(e.target as HTMLSelectElement).value}` : ""}`, true)}
          >
            <option value="">all</option>
            {STATES.map((s) => (
              <option value={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      <Notice error={error} />
      {loaded && issues.length === 0 && <p class="muted">No issues{state ? ` ${state}` : ""}. The [[alerts]] rules of the config file open them.</p>}
      <ul class="issues" aria-label="Issues">
        {issues.map((i) => (
          <li key={i.id} class="card">
            <p>
              <strong class={`state ${i.state}`}>{i.state}</strong> <span>{visible(i.summary)}</span>
            </p>
            <p class="muted">
              Rule <code>{i.rule}</code> ({i.kind}), {visible(i.scope)}; since <Time at={i.opened_at} />, seen {i.count} time(s), last{" "}
              <Time at={i.last_seen_at} />
            </p>
            <ol class="muted" aria-label={`History of ${i.rule} ${visible(i.scope)}`}>
              {i.history.map((h) => (
                <li>
                  {h.action} by {visible(h.by)} <Time at={h.at} />
                </li>
              ))}
            </ol>
            <div class="actions">
              {i.hooks_query && (
                <a href={`/ui/hooks?${i.hooks_query}`} onClick={link}>
                  The hooks
                </a>
              )}
              {i.state === "open" && (
                <button type="button" onClick={() => act(i, "ack")}>
                  Acknowledge
                </button>
              )}
              {i.state !== "resolved" && (
                <button type="button" onClick={() => act(i, "resolve")}>
                  Resolve
                </button>
              )}
            </div>
            {i.kind === "handler" && i.state !== "resolved" && <Bulk channel={i.scope} status="failed" onDone={load} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The number of open issues, read again every 10 s and on each issue event: the navigation's badge. */
export function useOpenIssues(signedIn: boolean): number {
  const [open, setOpen] = useState(0);
  useEffect(() => {
    if (!signedIn) return;
    const read = () =>
      api<Issue[]>("GET", "/issues?state=open&limit=100").then(
        (list) => setOpen(list.length),
        () => undefined,
      );
    void read();
    const timer = setInterval(read, 10_000);
    addEventListener("issues-changed", read);
    return () => (clearInterval(timer), removeEventListener("issues-changed", read));
  }, [signedIn]);
  return open;
}
