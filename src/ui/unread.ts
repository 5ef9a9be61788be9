import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api";
import { titleOf, visible } from "./format";
import { useStream } from "./live";

/** The signed-in user's unread hooks (GET /ui/api/unread): in all, and per channel (channels with none left out). */
export type Unread = { total: number; channels: Record<string, number> };

let current: Unread = { total: 0, channels: {} };
const listeners = new Set<(u: Unread) => void>();

function publish(u: Unread): void {
  current = u;
  for (const fn of listeners) fn(u);
}

/** Reads the counts again now (after the user marked hooks read, or hooks arrived). */
export function readUnread(): Promise<void> {
  return api<Unread>("GET", "/unread").then(publish, () => undefined);
}

/** The user's unread counts, kept current by UnreadFeed (rendered once, by the app). */
export function useUnread(): Unread {
  const [u, setU] = useState(current);
  useEffect(() => {
    listeners.add(setU);
    setU(current);
    return () => void listeners.delete(setU);
  }, []);
  return u;
}

/** The unread counts are read again at most this often while hooks arrive or channels change. */
const REREAD_MS = 2000;

/** Where this browser keeps the channels a user watches (notifications are this browser's, like the theme). */
const watchKey = (email: string) => `mailroom.watch:${email}`;

/** The channels the user watches in this browser. */
export function watched(email: string): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(watchKey(email)) ?? "[]");
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Watches a channel (or stops): the browser is asked for permission to notify the first time,
 * only here (the user clicked "Notify me"). Resolves to the channels watched now, or throws with
 * what to tell the user when the browser refuses.
 */
export async function setWatching(email: string, channel: string, on: boolean): Promise<string[]> {
  const now = watched(email).filter((c) => c !== channel);
  if (on) {
    if (typeof Notification === "undefined") throw new Error("This browser cannot show notifications.");
    const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    if (permission !== "granted") throw new Error("The browser blocks notifications from this page: allow them in its site settings, then try again.");
    now.push(channel);
  }
  localStorage.setItem(watchKey(email), JSON.stringify(now.sort()));
  return now;
}

/** What a notification of a hook says: plain text (a Notification renders no markup). */
type Arrival = { id: string; channel: string; status: string; method?: string; event_type?: string | null; preview?: string | null };

/**
 * Keeps the unread counts and the page's title current for the signed-in user (rendered once, while one is), and notifies of
 * hooks that arrive in a watched channel. The tab's stream of hook summaries (the newest 50 per write):
 * a hook whose id is newer than the newest known is one just caught (ids grow with time), so a
 * status change of an older hook is not taken for an arrival. The counts are read again soon after
 * hooks arrive or channels change (a read mark reports its channels), at most every 2 s while they
 * keep doing so, when the stream opens (again), and when this page marked hooks read ("unread-changed").
 */
export function UnreadFeed({ email }: { email: string }): null {
  const unread = useUnread();
  useEffect(() => {
    document.title = titleOf(unread.total);
  }, [unread.total]);
  // Signed out: no count is left for the next user to see.
  useEffect(
    () => () => {
      publish({ total: 0, channels: {} });
      document.title = titleOf(0);
    },
    [],
  );
  useEffect(() => {
    void readUnread();
    const again = () => void readUnread();
    addEventListener("unread-changed", again);
    return () => removeEventListener("unread-changed", again);
  }, [email]);
  // The newest hook id known: hooks newer than it are arrivals. Until the first page answers, a
  // pending hook counts as one (a hook caught meanwhile must not be missed).
  const newest = useRef<string | undefined>(undefined);
  const soon = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastRead = useRef(0);
  useEffect(() => () => clearTimeout(soon.current), []);
  // Soon after a quiet spell, then at most every REREAD_MS while hooks keep coming: a busy server
  // changes its channels all the time, and each read counts the user's marks.
  const again = () => {
    if (soon.current) return;
    const wait = Math.max(300, lastRead.current + REREAD_MS - Date.now());
    soon.current = setTimeout(() => {
      soon.current = undefined;
      lastRead.current = Date.now();
      void readUnread();
    }, wait);
  };
  useStream(
    {},
    {
      hook: (h) => {
        const hook = h as Arrival;
        const known = newest.current;
        if (known === undefined ? hook.status !== "pending" : hook.id <= known) return;
        if (known !== undefined) newest.current = hook.id;
        again();
        if (watched(email).includes(hook.channel)) notify(hook);
      },
      // A channel's hooks changed, or someone's read marks on them (this user's in another tab, or
      // on another instance): the counts are read again.
      channel: again,
      // A burst past the newest 50: the counts say how many (those left out notify nothing).
      skipped: again,
      reset: () => {
        void readUnread();
        newest.current = undefined;
        api<{ id: string }[]>("GET", "/hooks?fields=summary&limit=1").then(
          ([h]) => {
            const known = newest.current ?? "";
            newest.current = h && h.id > known ? h.id : known;
          },
          () => undefined,
        );
      },
    },
    [email],
  );
  return null;
}

function notify(hook: Arrival): void {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  // A sender's text shown as the rows show it: control and direction characters made visible.
  const what = [hook.method, hook.event_type && visible(hook.event_type)].filter(Boolean).join(" · ");
  const note = new Notification(`New hook in ${hook.channel}`, {
    body: [what, hook.preview && visible(hook.preview)].filter(Boolean).join("\n").slice(0, 200),
    tag: `mailroom:${hook.channel}`,
  });
  note.onclick = () => {
    focus();
    location.assign(`/ui/hooks/${hook.id}?channel=${encodeURIComponent(hook.channel)}`);
    note.close();
  };
}
