import type { Statement } from "bun:sqlite";
import { eventTypeCondition } from "../event-type";
import { HOOK_STATUSES, type HookKey, type HookStatus, type ListQuery } from "../../hooks/store";

/** A page of ids: the list's filters, and `from` (inclusive), the smallest id wanted. */
export type IdRange = ListQuery & { from?: string };

/**
 * Keys of one channel's hooks, newest ("desc") or oldest ("asc") first, strictly beyond `after` (and
 * at or above `from`), at most `limit`. Hooks carry one secondary index, (channel, status, id), which
 * keeps catching cheap; a channel's hooks of any status are the merge of one index range per status
 * (four seeks), and each range says the status of what it holds.
 */
export function channelKeys(
  q: (text: string) => Statement,
  channel: string,
  order: "asc" | "desc",
  limit: number,
  after?: string,
  statuses: readonly HookStatus[] = HOOK_STATUSES,
  eventType?: string,
  from?: string,
): HookKey[] {
  const keys: HookKey[] = [];
  const type = eventTypeCondition(eventType, () => "?");
  const text = `SELECT id FROM hooks WHERE channel = ? AND status = ?${after === undefined ? "" : ` AND id ${order === "desc" ? "<" : ">"} ?`}${
    from === undefined ? "" : " AND id >= ?"
  }${type.sql}
    ORDER BY id ${order} LIMIT ?`;
  for (const status of statuses) {
    const args = [channel, status, ...(after === undefined ? [] : [after]), ...(from === undefined ? [] : [from]), ...type.args, limit];
    for (const r of q(text).values(...args)) keys.push({ id: r[0] as string, channel, status });
  }
  return firstOf(keys, order, limit);
}

/** The first `limit` of `keys` in the given order of their ids. */
export function firstOf(keys: HookKey[], order: "asc" | "desc", limit: number): HookKey[] {
  keys.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (order === "desc") keys.reverse();
  return keys.length > limit ? keys.slice(0, limit) : keys;
}

/**
 * Ids of a page, newest first, each statement one index range read up to its LIMIT (never a sort
 * of a channel's hooks, never a walk of every hook for a status). A channel and a status, or
 * neither, is one index range (the (channel, status, id) index, or the primary key); a channel
 * alone merges its four status ranges; a status alone merges the ranges of the channels whose
 * counters say they hold hooks of that status.
 */
export function hookIds(q: (text: string) => Statement, { channel, status, eventType, after, from, limit }: IdRange): string[] {
  if (status !== undefined && !HOOK_STATUSES.includes(status)) return [];
  if ((channel === undefined) === (status === undefined)) {
    const where: string[] = ["1 = 1"];
    const args: (string | number)[] = [];
    if (channel !== undefined) where.push("channel = ?"), args.push(channel);
    if (status !== undefined) where.push("status = ?"), args.push(status);
    if (after !== undefined) where.push("id < ?"), args.push(after);
    if (from !== undefined) where.push("id >= ?"), args.push(from);
    const type = eventTypeCondition(eventType, () => "?");
    const text = `SELECT id FROM hooks WHERE ${where.join(" AND ")}${type.sql} ORDER BY id DESC LIMIT ?`;
    return (q(text).values(...args, ...type.args, limit) as [string][]).map(([id]) => id);
  }
  let keys: HookKey[];
  if (channel !== undefined) keys = channelKeys(q, channel, "desc", limit, after, HOOK_STATUSES, eventType, from);
  else {
    const names = q(`SELECT name FROM channels WHERE ${status} > 0`).values() as [string][];
    keys = firstOf(
      names.flatMap(([name]) => channelKeys(q, name, "desc", limit, after, [status!], eventType, from)),
      "desc",
      limit,
    );
  }
  return keys.map((k) => k.id);
}
