/**
 * Saved views whose sidebar count issue 32 asks for in under 100 ms at 1,000,000 hooks, on the data
 * bench/million.ts fills: its six first, then other shapes a user saves.
 */
export const SIX_VIEWS = [
  "tag:vip status:failed",
  "refund tag:vip after:-7d",
  "status:failed channel:shop-3",
  "refund tag:big",
  "tag:billing",
  "foxtrot status:failed",
];

/**
 * A negated word alone and with a tag or a status; a field term, a prefix and a payload's field with
 * a tag; an OR of two rare needles and of two common ones; a size with a tag (no body is that
 * large); a date alone; `has:attempts` (the fill makes no attempt); `is:unread` (of who asks); a
 * channel with a word.
 */
export const MORE_VIEWS = [
  "tag:big -refund",
  "tag:vip -refund",
  "status:failed -refund",
  "-refund",
  "type:refund.created tag:vip",
  "event:order.* tag:vip",
  "payload.type:refund.created tag:big",
  "cus_4242 OR cus_1234",
  "refund OR paid",
  "larger:10KB tag:billing",
  "after:-7d",
  "has:attempts",
  "is:unread",
  "channel:shop-3 refund",
];

/**
 * The pages of issue 32's first figure (a word, a tag, a status and a 2-day range), by label: `#`
 * stands for the range, which `pageQuery` fills in.
 */
export const PAGE_QUERIES = [
  ["word + tag + status + 2 days", "refund tag:vip status:failed #"],
  ["common word + tag + status + 2 days", "foxtrot tag:billing status:failed #"],
  ["word + rare tag + status + 2 days", "refund tag:big status:pending #"],
  ["field term + tag + status + 2 days", "type:refund.created tag:vip status:handled #"],
  ["one sender's address", "ip:203.0.113.18"],
  ["a block no sender is in", "ip:10.0.0.0/8"],
] as const;

const DAY = 86_400_000;

/**
 * A page query with its range for run `i`: 2 days that move back an hour each run, inside the 7 days
 * before the fill's `end` (bench/million.ts's million.json).
 */
export function pageQuery(query: string, end: number, i: number): string {
  const iso = (ms: number) => new Date(ms).toISOString();
  return query.replace("#", `after:${iso(end - 3 * DAY - i * 3_600_000)} before:${iso(end - DAY - i * 3_600_000)}`);
}
