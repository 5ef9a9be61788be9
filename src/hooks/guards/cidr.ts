/**
 * IP addresses and CIDR blocks as 16 bytes: IPv4 is held in its IPv4-mapped IPv6 form
 * (::ffff:a.b.c.d), so "10.0.0.0/8" matches both "10.1.2.3" and "::ffff:10.1.2.3".
 *
 * @example cidrContains(parseCidr("2001:db8::/32")!, parseIp("2001:db8::1")!) === true
 */
export type Cidr = { bytes: Uint8Array; bits: number };

function parseIpv4(text: string): number[] | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    out.push(Number(p));
  }
  return out;
}

function parseIpv6(text: string): Uint8Array | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === "") return [];
    const out: number[] = [];
    const items = s.split(":");
    for (const [i, item] of items.entries()) {
      if (i === items.length - 1 && item.includes(".")) {
        const v4 = parseIpv4(item);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(item)) out.push(parseInt(item, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const fill = 8 - head.length - tail.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const all = [...head, ...new Array<number>(fill).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

/** An IPv4 or IPv6 address (a `%zone` suffix and [brackets] are ignored); undefined if it is not one. */
export function parseIp(text: string): Uint8Array | undefined {
  const bare = text
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (bare.includes(":")) return parseIpv6(bare);
  const v4 = parseIpv4(bare);
  if (!v4) return undefined;
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  bytes.set(v4, 12);
  return bytes;
}

/** "10.0.0.0/8", "2001:db8::/32" or a lone address; undefined if it is none of these. */
export function parseCidr(text: string): Cidr | undefined {
  const [address, length, extra] = text.trim().split("/");
  if (extra !== undefined) return undefined;
  const bytes = parseIp(address!);
  if (!bytes) return undefined;
  const v4 = !address!.includes(":");
  const max = v4 ? 32 : 128;
  if (length !== undefined && (!/^\d{1,3}$/.test(length) || Number(length) > max)) return undefined;
  const bits = length === undefined ? 128 : Number(length) + (v4 ? 96 : 0);
  return { bytes, bits };
}

export function cidrContains(block: Cidr, ip: Uint8Array): boolean {
  const full = block.bits >> 3;
  for (let i = 0; i < full; i++) if (block.bytes[i] !== ip[i]) return false;
  const rest = block.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (block.bytes[full]! & mask) === (ip[full]! & mask);
}
