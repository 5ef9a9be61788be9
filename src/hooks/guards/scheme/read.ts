import type { Scheme, SignedPiece } from "./types";
import { jsonField } from "./signed";

/** The headers a scheme reads, as this request names them (Svix's `svix-` instead of `webhook-`). */
export type HeaderNames = {
  /** Lower-case name as looked up -> name as shown in reasons. */
  lookup(name: string): string;
  shown(name: string): string;
  missing: string[];
};

/** Signatures found, and where, for the check and its reasons. */
export type Found = {
  signatures: string[];
  /** Several signatures may be presented (any one may match). */
  several: boolean;
  /** Their key or version ("v1"), for reasons. */
  label: string;
  where: string;
  timestamp?: string;
  timestampWhere: string;
};

const MAX_NUMBERED = 20;
const get = (headers: Headers, name: string) => headers.get(name)?.trim() || undefined;

/** The headers a scheme needs, in the order the signed content names them, the signature last (worked out once). */
export function neededHeaders(scheme: Scheme, pieces: readonly SignedPiece[]): string[] {
  const sig = scheme.header?.replace("{n}", "1");
  const wanted: string[] = [];
  for (const p of pieces) {
    if (p.kind === "header") wanted.push(p.name);
    if (p.kind === "timestamp" && scheme.timestamp?.header) wanted.push(scheme.timestamp.header);
  }
  if (scheme.timestamp?.header && !wanted.includes(scheme.timestamp.header)) wanted.push(scheme.timestamp.header);
  if (sig) wanted.push(sig);
  return [...new Set(wanted)];
}

const same = (name: string) => name.toLowerCase();
const shownAsIs = (name: string) => name;

/** Which headers to read and which are missing, in the order the signed content names them, the signature last. */
export function readHeaders(scheme: Scheme, headers: Headers, needed: readonly string[]): HeaderNames {
  const sig = scheme.header?.replace("{n}", "1");
  if (!scheme.fallback || !sig || get(headers, sig)) {
    // The usual case: no other family of names to consider.
    const missing: string[] = [];
    for (const n of needed) if (!get(headers, n)) missing.push(n);
    return { lookup: same, shown: shownAsIs, missing };
  }
  let swap: [string, string] | undefined;
  const alt = scheme.fallback[1] + sig.toLowerCase().slice(scheme.fallback[0].length);
  if (sig.toLowerCase().startsWith(scheme.fallback[0]) && get(headers, alt)) swap = scheme.fallback;
  const lookup = (name: string) => {
    const lower = name.toLowerCase();
    return swap && lower.startsWith(swap[0]) ? swap[1] + lower.slice(swap[0].length) : lower;
  };
  const shown = (name: string) => (swap && name.toLowerCase().startsWith(swap[0]) ? lookup(name) : name);
  const missing = needed.filter((n) => !get(headers, lookup(n))).map(shown);
  return { lookup, shown, missing };
}

/** The signatures the request presents, or the reason it presents none. */
export function collectSignatures(
  scheme: Scheme,
  names: HeaderNames,
  headers: Headers,
  json: () => Record<string, unknown> | undefined,
  query = "",
): Found | { refusal: string } {
  const tsHeader = scheme.timestamp?.header;
  const base = {
    timestamp: tsHeader ? get(headers, names.lookup(tsHeader)) : undefined,
    timestampWhere: tsHeader ? names.shown(tsHeader) : scheme.timestamp?.field ? `body field ${scheme.timestamp.field}` : "",
  };
  if (scheme.field !== undefined) {
    const value = jsonField(json(), scheme.field);
    const where = `body field ${scheme.field}`;
    if (value === undefined) return { refusal: `the body has no field ${scheme.field}` };
    return { ...base, signatures: [strip(scheme, value)], several: false, label: "", where };
  }
  if (scheme.query !== undefined) {
    const value = new URLSearchParams(query).get(scheme.query);
    if (!value) return { refusal: `missing query parameter ${scheme.query}` };
    return { ...base, signatures: [strip(scheme, value)], several: false, label: "", where: `query parameter ${scheme.query}` };
  }
  const header = scheme.header!;
  if (header.includes("{n}")) {
    const values: string[] = [];
    for (let n = 1; n <= MAX_NUMBERED; n++) {
      const v = get(headers, names.lookup(header.replace("{n}", String(n))));
      if (v === undefined) break;
      values.push(strip(scheme, v));
    }
    return { ...base, signatures: values, several: true, label: "", where: names.shown(header.replace("{n}", "N")) };
  }
  const where = names.shown(header);
  const value = get(headers, names.lookup(header))!;
  if (scheme.key !== undefined) {
    const signatures: string[] = [];
    let timestamp: string | undefined;
    for (const item of value.split(scheme.pairs ?? ",")) {
      const eq = item.indexOf("=");
      if (eq < 0) continue;
      const k = item.slice(0, eq).trim();
      const v = item.slice(eq + 1).trim();
      if (k === scheme.key) signatures.push(v);
      else if (k === scheme.timestamp?.key && timestamp === undefined) timestamp = v;
    }
    if (scheme.timestamp?.key !== undefined && timestamp === undefined) return { refusal: `${where} has no timestamp (${scheme.timestamp.key}=)` };
    if (signatures.length === 0) return { refusal: `${where} has no ${scheme.key} signature` };
    return {
      timestamp: timestamp ?? base.timestamp,
      timestampWhere: timestamp ? where : base.timestampWhere,
      signatures,
      several: true,
      label: scheme.key,
      where,
    };
  }
  if (scheme.separator !== undefined) {
    const label = (scheme.prefix ?? "").replace(/[^A-Za-z0-9]+$/, "");
    const entries = value
      .split(scheme.separator)
      .map((e) => e.trim())
      .filter(Boolean);
    const timestamp = scheme.timestamp?.first ? entries.shift() : undefined;
    if (scheme.timestamp?.first && timestamp === undefined) return { refusal: `${where} has no timestamp` };
    if (timestamp !== undefined) Object.assign(base, { timestamp, timestampWhere: where });
    const signatures = scheme.prefix ? entries.filter((e) => e.startsWith(scheme.prefix!)).map((e) => e.slice(scheme.prefix!.length)) : entries;
    if (signatures.length === 0) return { refusal: `${where} has no ${label ? `${label} ` : ""}signature` };
    return { ...base, signatures, several: true, label, where };
  }
  if (scheme.prefix && !value.startsWith(scheme.prefix)) return { refusal: `${where} must be "${scheme.prefix}<${scheme.encoding}>"` };
  return { ...base, signatures: [strip(scheme, value)], several: false, label: "", where };
}

function strip(scheme: Scheme, value: string): string {
  return (scheme.prefix && value.startsWith(scheme.prefix) ? value.slice(scheme.prefix.length) : value).trim();
}
