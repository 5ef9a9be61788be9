import type { HookStatus } from "./status";

/** The longest search (`q` of ListHooks) the APIs take. */
export const MAX_QUERY_LENGTH = 1000;

/** A page of a search: the plain list's filters, and the times `since` (inclusive) and `until` in ms. */
export type HookSearchPage = {
  channel?: string;
  status?: HookStatus;
  /** The plain list's `event_type`: exact and case-sensitive, or a prefix with a trailing `*`. */
  eventType?: string;
  after?: string;
  since?: number;
  until?: number;
  limit: number;
};

/**
 * What the hook list needs of search (`q`, `since` and `until` of ListHooks): declared here so that
 * hooks/ never imports search/ (search/index.ts hookSearch fills it; the composition hands it in).
 */
export interface HookSearch {
  /**
   * Reads a search (`q`); throws invalid_argument when it is not one. The function it returns
   * finds the ids of a page of the hooks matching it, newest first. `reader`: who asks, whose read
   * marks `is:unread` reads (a dashboard user's e-mail, `api:<label>` for an API key).
   * `contracts`: the caller filters by the contract terms (`schema:`, `is:new-type`,
   * `is:new-field`), which the finder then leaves out and describes; without it they are refused.
   */
  read(q: string, reader?: string): HookFinder;
  read(q: string, reader: string | undefined, opts: { contracts: true }): HookFinder & { contract?: ContractFilter; matchesAll: boolean };
}

export type HookFinder = ((page: HookSearchPage) => Promise<string[]>) & {
  /**
   * How many hooks match, with the page's filters (no `after`, no `limit`): exactly as many as
   * every page together, counted up to `max + 1` (an answer above `max` says "more than max").
   */
  count(filters: Omit<HookSearchPage, "after" | "limit">, max: number): Promise<number>;
};

/** A hook's contract check, as the `contract` extension says it. */
export type ContractCheck = { result: string; new_type: boolean; new_field: boolean };

/** What the contract terms of a query ask: whether a hook's check (undefined: none kept) holds, and whether `none` is asked about. */
export type ContractFilter = { holds(check: ContractCheck | undefined): boolean; asksNone: boolean };
