/** A decimal octet as written canonically (0 to 255, no leading zero). */
const OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
const DOTTED = `${OCTET}([.]${OCTET}){3}`;
const H = "[0-9a-fA-F]{1,4}";
/** `n` groups `h:h:h` (n >= 1). */
const groupsOf = (n: number) => (n === 1 ? H : `(${H}:){${n - 1}}${H}`);
/** Up to `n` groups (n >= 1), or none. */
const upTo = (n: number) => `(${H}(:${H}){0,${n - 1}})?`;
/**
 * Every form of an IPv6 address, as one pattern that JavaScript and PostgreSQL read alike (groups,
 * alternatives, counts and classes only): 8 groups, or `::` standing for at least one zero group
 * with at most 7 around it; or 6 groups' worth and a dotted IPv4 tail (at most 5 around a `::`).
 */
function ipv6Pattern(): string {
  const plain = [`(${H}:){7}${H}`, `::${upTo(7)}`];
  for (let left = 1; left <= 7; left++) plain.push(`${groupsOf(left)}::${left < 7 ? upTo(7 - left) : ""}`);
  const dotted = [`(${H}:){6}${DOTTED}`, `::(${H}:){0,5}${DOTTED}`];
  for (let left = 1; left <= 5; left++) dotted.push(`${groupsOf(left)}::(${H}:){0,${5 - left}}${DOTTED}`);
  return `^(${[...plain, ...dotted].join("|")})$`;
}

/**
 * What a sender's ip must be to be an address for `ip:` (after a `%zone` suffix is cut): IPv4 in
 * canonical dotted decimal, or IPv6 in any of its forms. Pure, so that the query language
 * (search/query.ts ipHex) and PostgreSQL's index of the addresses (schema/pg/ip.ts, which reads
 * the text as an `inet` only once it passed them, so no ip makes a query or an insert fail) check
 * the same patterns.
 */
export const IPV4_PATTERN = `^${DOTTED}$`;
export const IPV6_PATTERN = ipv6Pattern();
