import { useEffect } from "preact/hooks";

/** What a screen follows: one channel's changes, one hook's; everything when empty. */
export type StreamFilter = { channel?: string; hook?: string };

type Handlers = {
  hook?: (h: unknown) => void;
  channel?: (c: unknown) => void;
  reset?: () => void;
  hookDeleted?: (d: { id: string }) => void;
  refusal?: (r: unknown) => void;
  /** An alert's issue opened, reminded of, acknowledged or resolved: the Issue. */
  issue?: (i: unknown) => void;
  skipped?: () => void;
  /** A handler's circuit breaker opened, half-opened or closed: `{handler, state, failures, reopens_at}`. */
  handler?: (b: unknown) => void;
};
type Subscriber = { filter: StreamFilter; on: Handlers };

/**
 * The stream every screen of the tab shares: summaries, at most the newest LATEST hooks of a write
 * (a burst past them sends `skipped`, and screens read again). A browser opens at most six
 * connections to a host over HTTP/1.1: a stream per screen (the navigation's unread counts, the
 * list, the reading pane) took three of them per tab, and the third tab's requests hung.
 */
const STREAM = "/ui/api/stream?fields=summary&latest=50";
const subscribers = new Set<Subscriber>();
let source: EventSource | undefined;

/** The subscribers a message of this channel and hook reaches (undefined: no such field). */
function reached(channel: string | undefined, hook: string | undefined): Subscriber[] {
  return [...subscribers].filter(
    ({ filter }) =>
      (filter.channel === undefined || channel === undefined || filter.channel === channel) &&
      (filter.hook === undefined || hook === undefined || filter.hook === hook),
  );
}

function open(): EventSource {
  const s = new EventSource(STREAM);
  // Once the stream is open (again), every screen reloads: what changed between its first load and
  // this moment came on no stream. Then the page is marked as following (tests wait for it).
  s.onopen = () => {
    for (const sub of [...subscribers]) sub.on.reset?.();
    document.body.dataset.live = "open";
  };
  const on = (event: string, handler: keyof Handlers, scope: (x: any) => [string | undefined, string | undefined] = () => [undefined, undefined]) =>
    s.addEventListener(event, (e) => {
      const x = JSON.parse((e as MessageEvent).data);
      for (const sub of reached(...scope(x))) (sub.on[handler] as ((x: unknown) => void) | undefined)?.(x);
    });
  on("hook", "hook", (h) => [h.channel, h.id]);
  on("channel", "channel", (c) => [c.name, undefined]);
  on("hook-deleted", "hookDeleted", (d) => [undefined, d.id]);
  on("refusal", "refusal", (r) => [r.channel, undefined]);
  for (const event of ["opened", "reminded", "acknowledged", "resolved"]) on(`issue.${event}`, "issue");
  for (const state of ["open", "half_open", "closed"]) on(`handler.breaker_${state}`, "handler");
  s.addEventListener("reset", () => {
    for (const sub of [...subscribers]) sub.on.reset?.();
  });
  s.addEventListener("skipped", () => {
    for (const sub of [...subscribers]) sub.on.skipped?.();
  });
  return s;
}

/**
 * Live updates for a screen, from the tab's one EventSource on /ui/api/stream (opened with the
 * first screen that follows it, closed after the last). EventSource resumes with Last-Event-ID by
 * itself; an event `reset` means changes were missed, so the screen reloads.
 */
export function useStream(filter: StreamFilter, on: Handlers, deps: unknown[]): void {
  useEffect(() => {
    const sub: Subscriber = { filter, on };
    subscribers.add(sub);
    if (!source) source = open();
    // The stream was open already: this screen loaded what it shows just now, and follows from here.
    return () => {
      subscribers.delete(sub);
      if (subscribers.size === 0) source?.close(), (source = undefined), delete document.body.dataset.live;
    };
  }, deps);
}
