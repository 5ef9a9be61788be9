import { IPV4_PATTERN, IPV6_PATTERN } from "../../lib/ip-pattern";

/**
 * A hook's ip (the text in `column`) as an `inet`, IPv4 in its IPv4-mapped IPv6 form (as the query
 * language's ipHex reads it), a `%zone` suffix ignored; NULL when it is no address. The text is
 * cast only once it passed the patterns ipHex checks (every one of which `inet` reads), so no ip
 * (what the socket gave, or anything an import carried) makes an insert or a query fail.
 *
 * The index `hooks_ip_id` is on this expression (column `"ip"`); a query (column `h.ip`) uses it
 * only when it repeats the expression exactly, so both are made here. Every function in it is
 * IMMUTABLE (split_part, `~`, `||`, the text-to-inet cast), as an index expression must be.
 *
 * @example hookIpInet("h.ip") // (CASE WHEN split_part(h.ip, '%', 1) ~ '^...$' THEN ('::ffff:' || ...)::inet ... END)
 */
export function hookIpInet(column: string): string {
  const bare = `split_part(${column}, '%', 1)`;
  return `(CASE WHEN ${bare} ~ '${IPV4_PATTERN}' THEN ('::ffff:' || ${bare})::inet WHEN ${bare} ~ '${IPV6_PATTERN}' THEN ${bare}::inet END)`;
}
