import type { HmacGuardConfig } from "./kinds";
import type { Clock } from "../../lib/clock";
import type { Guard, GuardInput } from "./types";
import { GuardConfigError, PASS, header, hmac, matchesAny, requireSecret, timestampProblem, unauthenticated } from "./verdict";

/** A piece of what is signed: text, or a value taken from the request (undefined when absent). */
type Piece = (input: GuardInput) => string | Uint8Array | undefined;

/**
 * Compiles the `signed` template, e.g. "{timestamp}.{body}". Throws GuardConfigError for an
 * unknown placeholder, a {timestamp} without timestamp_header, or {body} not exactly once
 * (a signature that does not cover the body proves nothing about it).
 */
export function compileTemplate(template: string, timestampHeader: string | undefined): { pieces: Piece[]; needs: string[] } {
  const pieces: Piece[] = [];
  const needs: string[] = [];
  let bodies = 0;
  for (const part of template.split(/(\{[^{}]*\})/)) {
    if (part === "") continue;
    if (!part.startsWith("{") || !part.endsWith("}")) {
      pieces.push(() => part);
      continue;
    }
    const field = part.slice(1, -1);
    if (field === "body") {
      bodies++;
      pieces.push((i) => i.body);
    } else if (field === "method") pieces.push((i) => i.method);
    else if (field === "query") pieces.push((i) => i.query);
    else if (field === "timestamp") {
      if (!timestampHeader) throw new GuardConfigError("signed", "{timestamp} needs timestamp_header");
      pieces.push((i) => header(i.headers, timestampHeader));
    } else if (/^header:[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(field)) {
      const name = field.slice(7).toLowerCase();
      needs.push(name);
      pieces.push((i) => header(i.headers, name));
    } else throw new GuardConfigError("signed", `unknown placeholder ${part}; use {body}, {timestamp}, {method}, {query}, {header:NAME}`);
  }
  if (bodies !== 1) throw new GuardConfigError("signed", "must contain {body} exactly once");
  return { pieces, needs };
}

function decodeSecret(secret: string, encoding: HmacGuardConfig["secret_encoding"]): string | Buffer {
  if (encoding === "utf8") return secret;
  const ok = encoding === "hex" ? /^(?:[0-9a-fA-F]{2})+$/.test(secret) : /^[A-Za-z0-9+/]+={0,2}$/.test(secret);
  if (!ok) throw new GuardConfigError("secret", `is not ${encoding}, as secret_encoding says`);
  return Buffer.from(secret, encoding);
}

/**
 * Any HMAC scheme: the signature in `header` after `prefix`, hex or base64 of the HMAC of the
 * `signed` template, with an optional timestamp header checked against the tolerance.
 */
export function createHmacGuard(config: HmacGuardConfig, { clock }: { clock: Clock }): Guard {
  const key = decodeSecret(requireSecret(config.secret), config.secret_encoding);
  const timestampHeader = config.timestamp_header?.toLowerCase();
  const { pieces, needs } = compileTemplate(config.signed, timestampHeader);
  const tolerance = config.tolerance;
  const sigHeader = config.header.toLowerCase();
  return {
    name: config.name,
    kind: config.kind,
    signatureHeaders: [sigHeader],
    authenticates: true,
    check(input) {
      const given = header(input.headers, sigHeader);
      if (given === undefined) return unauthenticated(`missing ${config.header} header`);
      if (!given.startsWith(config.prefix)) return unauthenticated(`${config.header} must start with "${config.prefix}"`);
      const timestamp = timestampHeader === undefined ? undefined : header(input.headers, timestampHeader);
      if (timestampHeader !== undefined && timestamp === undefined) return unauthenticated(`missing ${config.timestamp_header} header`);
      for (const name of needs) if (header(input.headers, name) === undefined) return unauthenticated(`missing ${name} header`);
      const parts = pieces.map((piece) => piece(input)!);
      const expected = hmac(config.algorithm, key, parts).toString(config.encoding);
      let presented = given.slice(config.prefix.length).trim();
      if (config.encoding === "hex") presented = presented.toLowerCase();
      if (!matchesAny(expected, [presented])) return unauthenticated(`${config.header} does not match the signed content`);
      if (timestamp === undefined) return PASS;
      const late = timestampProblem(timestamp, clock.now(), tolerance);
      return late ? unauthenticated(`${config.timestamp_header}: ${late}`) : PASS;
    },
  };
}
