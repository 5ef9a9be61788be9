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
