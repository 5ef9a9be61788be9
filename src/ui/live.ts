import { useEffect } from "preact/hooks";

/**
 * One EventSource on /ui/api/stream per screen that wants live updates. EventSource resumes with
 * Last-Event-ID by itself; an event `reset` means changes were missed, so the screen reloads.
 */
export function useStream(
  params: string,
  on: {
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
  },
  deps: unknown[],
): void {
  useEffect(() => {
    const source = new EventSource(`/ui/api/stream${params}`);
    // Once the stream is open (again), the screen reloads: what changed between its first load and
    // this moment came on no stream. Then the page is marked as following (tests wait for it).
    source.onopen = () => {
      on.reset?.();
      document.body.dataset.live = "open";
    };
    const parse = (fn?: (x: any) => void) => (e: MessageEvent) => fn?.(JSON.parse(e.data));
    source.addEventListener("hook", parse(on.hook));
    source.addEventListener("channel", parse(on.channel));
    source.addEventListener("hook-deleted", parse(on.hookDeleted));
    source.addEventListener("refusal", parse(on.refusal));
    for (const event of ["opened", "reminded", "acknowledged", "resolved"]) source.addEventListener(`issue.${event}`, parse(on.issue));
    for (const state of ["open", "half_open", "closed"]) source.addEventListener(`handler.breaker_${state}`, parse(on.handler));
    source.addEventListener("reset", () => on.reset?.());
    source.addEventListener("skipped", () => on.skipped?.());
    return () => (source.close(), delete document.body.dataset.live);
  }, deps);
}
