import type { Clock } from "../lib/clock";
import type { AlertEngine } from "./engine";
import type { IssueRow, IssueStore } from "./store";

/** What the routes, the CLI's server side and the dashboard do with issues. */
export function createIssues({
  store,
  engine,
  clock,
  acknowledged,
}: {
  store: IssueStore;
  engine: AlertEngine;
  clock: Clock;
  acknowledged: (issue: IssueRow) => void;
}) {
  return {
    get: (id: string) => store.get(id),
    list: (filter: Parameters<IssueStore["list"]>[0]) => store.list(filter),
    countOpen: () => store.countOpen(),
    /** open -> acknowledged; "conflict" from any other state, undefined when there is no such issue. */
    async ack(id: string, by: string) {
      const now = clock.now();
      const done = await store.transition(id, ["open"], "acknowledged", { at: now, action: "acknowledged", by });
      if (done && done !== "conflict") acknowledged(done);
      return done;
    },
    /** open or acknowledged -> resolved, by hand; the notifiers are told. */
    resolve: (id: string, by: string) => engine.resolve(id, by),
  };
}

export type Issues = ReturnType<typeof createIssues>;
