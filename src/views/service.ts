import type { HookSearch } from "../hooks/hook-search";
import type { Clock } from "../lib/clock";
import { AppError, notFound } from "../lib/errors";
import { SHARED_OWNER, type ViewRow, type ViewStore } from "./store";

/** Matches counted for the sidebar, at most: past it the count says "at least" (`count_exact` false). */
export const VIEW_COUNT_MAX = 10_000;

/**
 * Saved views: a named query (docs/search.md) of one user, or shared with everyone by an admin.
 * A user sees the shared views and their own; a name may be both (theirs is listed after).
 */
export function createViews({ store, search, clock }: { store: ViewStore; search: HookSearch; clock: Clock }) {
  /**
   * How many hooks `query` matches for `reader` (whose `is:unread` it is), up to VIEW_COUNT_MAX:
   * counted by the search's own counting path (the database's COUNT, or candidates checked until
   * past the limit), never by reading the matches' pages.
   */
  async function count(query: string, reader?: string): Promise<{ count: number; exact: boolean }> {
    const n = await search.read(query, reader).count({}, VIEW_COUNT_MAX);
    return n > VIEW_COUNT_MAX ? { count: VIEW_COUNT_MAX, exact: false } : { count: n, exact: true };
  }
  const refuseShared = () => new AppError("permission_denied", "only an admin may save or remove a shared view; save it as your own");
  return {
    count,
    list: (actor: string): Promise<ViewRow[]> => store.list([SHARED_OWNER, actor]),
    /** Saves a view (throws invalid_argument for a query that does not parse, permission_denied for a member's shared one). */
    async save(actor: string, admin: boolean, view: { name: string; query: string; shared: boolean }): Promise<ViewRow> {
      if (view.shared && !admin) throw refuseShared();
      search.read(view.query);
      const now = clock.now();
      return store.save({ owner: view.shared ? SHARED_OWNER : actor, name: view.name, query: view.query, createdBy: actor, createdAt: now, updatedAt: now });
    },
    async remove(actor: string, admin: boolean, name: string, shared: boolean): Promise<void> {
      if (shared && !admin) throw refuseShared();
      if (!(await store.remove(shared ? SHARED_OWNER : actor, name))) throw notFound(`${shared ? "shared " : ""}view "${name}" not found`);
    },
  };
}

export type Views = ReturnType<typeof createViews>;
