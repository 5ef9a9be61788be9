import { useEffect, useRef, useState } from "preact/hooks";
import { useLatest } from "../latest";
import { api, query, type Hook } from "../api";
import type { Contract } from "../parts/contract-badge";
import { useStream } from "../live";
import { RANGES, searchOf, typeMatches, type Filters } from "../filters";

export { filtersOf, RANGES, type Filters } from "../filters";

/** A row of the list: a hook's summary (no body), with what the server adds when it knows it. */
export type Row = Omit<Hook, "body" | "headers" | "events" | "payload"> & {
  size?: number;
  event_type?: string | null;
  preview?: string | null;
  contract?: Contract;
  /** Its tags, sorted (with `include=extensions`, and on the stream); absent when it has none. */
  tags?: string[];
};

/**
 * The newest 50 hooks of the filters, kept live by the stream. Rows come as summaries (no bodies):
 * the stream sends of a burst only the newest 50. With a search, hooks that arrive are not added
 * (the server decides what matches), but the rows shown still change status live.
 */
export function useHookList(f: Filters) {
  const [hooks, setHooks] = useState<Row[]>([]);
  const [error, setError] = useState("");
  const [loaded, setLoaded] = useState(false);
  // Which rows the user has not opened: the same page asked with `is:unread` (the reader is the
  // session's user); hooks that arrive are unread, a hook opened is read ("hook-read").
  const [unread, setUnread] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    const read = (e: Event) => setUnread((u) => without(u, (e as CustomEvent<string>).detail));
    addEventListener("hook-read", read);
    return () => removeEventListener("hook-read", read);
  }, []);
  // Hooks that arrive are the newest, so they pass a time range; whether they match a search only the server knows.
  const searching = Boolean(searchOf(f));
  // A page read may answer after new hooks arrived on the stream: those that arrived since the read
  // was asked for stay on top of its answer, so a late answer never hides one.
  const arrivals = useRef({ count: 0, at: new Map<string, number>() });
  const reread = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const key = `${f.channel} ${f.status} ${f.after} ${f.q} ${f.type} ${f.range}`;
  const ask = useLatest(key);
  const load = () => {
    const answer = ask();
    const asked = arrivals.current.count;
    const since = RANGES[f.range] ? new Date(Date.now() - RANGES[f.range]![1]).toISOString() : "";
    // With `include=extensions`: each row's contract check, for its badge, and its tags.
    const params = {
      channel: f.channel,
      status: f.status,
      event_type: f.type,
      after: f.after,
      limit: "50",
      fields: "summary",
      include: "extensions",
      q: searchOf(f),
      since,
    };
    return api<Row[]>("GET", `/hooks${query(params)}`).then(
      (page) => {
        if (!answer.take()) return;
        // Which of them are unread: the same page with `is:unread`, from its oldest hook's time on
        // (without that bound, a search of a user who read everything reads every hook).
        // `since` is compared with the time in a hook's id, which can be a millisecond or more before
        // its created_at (the oldest row was then left out, and shown read): a second of margin.
        const oldest = page.at(-1)?.created_at;
        const from = oldest && new Date(Date.parse(oldest) - 1000).toISOString();
        if (from)
          api<{ id: string }[]>("GET", `/hooks${query({ ...params, include: undefined, q: `${searchOf(f)} is:unread`.trim(), since: from })}`).then(
            // Rows not in the page (arrivals kept above it) keep their mark.
            (unread) => {
              if (!answer.still()) return;
              const inPage = new Set(page.map((h) => h.id));
              setUnread((u) => new Set([...unread.map((h) => h.id), ...[...u].filter((id) => !inPage.has(id))]));
            },
            () => undefined,
          );
        const inPage = new Set(page.map((h) => h.id));
        const since = (h: Row) => (arrivals.current.at.get(h.id) ?? -1) >= asked && !inPage.has(h.id);
        setHooks((shown) => (f.after || searching ? page : [...shown.filter(since), ...page].slice(0, 50)));
        setError("");
        setLoaded(true);
      },
      (e) => answer.take() && (setError(e.message), setLoaded(true)),
    );
  };
  useEffect(() => void load(), [key]);
  useStream(
    { channel: f.channel || undefined },
    {
      hook: (h) => {
        const hook = h as Row;
        setHooks((all) => {
          const at = all.findIndex((x) => x.id === hook.id);
          // A status change keeps the row's contract check, which the stream's summary does not carry.
          if (at >= 0) return all.map((x) => (x.id === hook.id ? { ...hook, contract: hook.contract ?? x.contract } : x));
          // New hooks arrive at the top of the first page only, and only where no search decides.
          if (f.after || searching || (f.status && hook.status !== f.status) || !typeMatches(hook.event_type, f.type)) return all;
          if (arrivals.current.at.size > 1000) arrivals.current.at.clear(); // only the latest arrivals matter
          arrivals.current.at.set(hook.id, arrivals.current.count++);
          setUnread((u) => new Set(u).add(hook.id));
          return [hook, ...all].slice(0, 50);
        });
      },
      hookDeleted: (d) => setHooks((all) => all.filter((x) => x.id !== d.id)),
      reset: load,
      // Changes were left out (a burst): a row shown may have changed or gone. The page is read again
      // at most once a second, and once more after the burst.
      skipped: () => {
        if (reread.current) return;
        reread.current = setTimeout(() => ((reread.current = undefined), void load()), 1000);
      },
    },
    [key],
  );
  // A re-read timed under other filters is not made: the filters' own read is on its way.
  useEffect(
    () => () => {
      clearTimeout(reread.current);
      reread.current = undefined;
    },
    [key],
  );
  return { hooks, error, loaded, load, unread };
}

function without(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  if (!set.has(id)) return set;
  const next = new Set(set);
  next.delete(id);
  return next;
}
