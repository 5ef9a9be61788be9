/** The hooks list's filters: what the URL holds and how a hook that arrives is judged (pure, no DOM). */

/** Whether an event type passes the filter: equal, or starting with a prefix written `prefix*`; no filter passes all. */
export function typeMatches(type: string | null | undefined, filter: string): boolean {
  if (!filter) return true;
  return filter.endsWith("*") ? (type ?? "").startsWith(filter.slice(0, -1)) : type === filter;
}

/** The list's filters, as the URL holds them. */
export type Filters = { channel: string; status: string; type: string; range: string; q: string; after: string };

export const RANGES: Record<string, [string, number]> = {
  "15m": ["last 15 minutes", 15 * 60_000],
  "1h": ["last hour", 3_600_000],
  "24h": ["last 24 hours", 86_400_000],
  "7d": ["last 7 days", 7 * 86_400_000],
};

export function filtersOf(url: URL): Filters {
  const g = (k: string) => url.searchParams.get(k) ?? "";
  // `event_type` is GET /v1/hooks's name for it: an issue's hooks_query links here with it.
  return { channel: g("channel"), status: g("status"), type: g("type") || g("event_type"), range: g("range"), q: g("q"), after: g("after") };
}

/** The search sent as `q`: the words and field terms typed (the event type has its own filter, `event_type`). */
export function searchOf(f: Filters): string {
  return f.q.trim();
}

/**
 * The hooks list's URL filtered by `tag:NAME` as well: the term added to the search `q` of `search`
 * (the list's own query string) unless it is there already; paging starts over, and a saved view is left.
 *
 * @example tagFilterHref("?channel=shop&q=refund", "billing") // "/ui/hooks?channel=shop&q=refund+tag%3Abilling"
 */
export function tagFilterHref(search: string, tag: string): string {
  const params = new URLSearchParams(search);
  const term = `tag:${tag}`;
  const q = (params.get("q") ?? "").trim();
  if (!q.split(/\s+/).includes(term)) params.set("q", q ? `${q} ${term}` : term);
  params.delete("after");
  params.delete("view");
  return `/ui/hooks?${params}`;
}
