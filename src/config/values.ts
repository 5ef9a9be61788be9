import { type SchemaOptions, type StringOptions, Type as t } from "@sinclair/typebox";
import { DURATION_PATTERN, parseDuration, parseSize, SIZE_PATTERN } from "../lib/units";
import { compileUrlPattern } from "./url-pattern";

/**
 * The kinds of value the TOML file writes as text and the code uses as something else: each
 * schema checks the text and converts it (TypeBox's Transform), once, in the loader (Value.Decode).
 * The config the code reads (config/schema.ts's Config) holds durations in milliseconds, sizes in
 * bytes and URL patterns compiled; the file's own form is ConfigInput.
 */
export const NAME_PATTERN = "^[a-z0-9]+(?:[_-][a-z0-9]+)*$";
/** What NAME_PATTERN allows, in words (check-config, the catching endpoint and the API say it so). */
export const NAME_RULE = "lowercase letters and digits, words joined by - or _";

/** `problem` is what the loader says when a value does not fit (TypeBox's own words are vague for patterns and unions). */
export const Name = (description: string) =>
  t.String({
    maxLength: 64,
    pattern: NAME_PATTERN,
    description,
    problem: `must be ${NAME_RULE}, at most 64 characters`,
  });
const DURATION_PROBLEM = 'must be a duration such as "500ms", "10s", "5m", "1h"';

/** A duration such as "500ms", "10s", "5m", "1h", "30d": milliseconds once loaded. */
export const Duration = (def: string, description: string) => DurationValue({ default: def, description, problem: DURATION_PROBLEM });

/** A duration with the string schema's options as given (`default`, `problem`...): milliseconds once loaded. */
export const DurationValue = (options: StringOptions) =>
  t
    .Transform(t.String({ ...options, pattern: DURATION_PATTERN }))
    .Decode((text) => parseDuration(text)!)
    .Encode((ms) => `${ms}ms`);

/** A number of bytes or a size such as "512KB", "10MB" (1 KB = 1024 bytes): bytes once loaded. */
export const Size = (def: string, description: string) =>
  SizeValue({ default: def, description, problem: 'must be a number of bytes or a size such as "512KB", "10MB"' });

/** A size with the union's options as given and the least number of bytes: bytes once loaded. */
export const SizeValue = (options: SchemaOptions, minimum = 0) =>
  t
    .Transform(t.Union([t.Integer({ minimum }), t.String({ pattern: SIZE_PATTERN })], options))
    .Decode((value) => parseSize(value)!)
    .Encode((bytes) => bytes);

/**
 * `[server] public_url`, once loaded: as written (`href`), without its trailing slash (`base`,
 * what paths are put after), and its `origin` (what the dashboard's requests must come from).
 */
export type PublicUrl = { href: string; base: string; origin: string };

/** An http(s) URL with a host and an optional path (`[server] public_url`): a PublicUrl once loaded. */
export const PublicUrlValue = (options: StringOptions) =>
  t
    .Transform(t.String({ ...options, pattern: "^https?://[^\\s/?#]+(?:/[^\\s?#]*)?$" }))
    .Decode((href): PublicUrl => ({ href, base: href.replace(/\/+$/, ""), origin: originOf(href) }))
    .Encode((url) => url.href);

/** The scheme and host as the URL parser says them (lower-cased, default port dropped); as written if it cannot. */
function originOf(href: string): string {
  try {
    return new URL(href).origin;
  } catch {
    return /^https?:\/\/[^/?#]+/i.exec(href)![0];
  }
}

/** A `[dashboard] member_send_to` URL pattern (config/url-pattern.ts): compiled once loaded. */
export const UrlPatternValue = (description: string) =>
  t
    .Transform(t.String({ description }))
    .Decode((pattern) => compileUrlPattern(pattern))
    .Encode((compiled) => compiled.pattern);

/** A rate such as "10/s", "600/m", "5/10s": at most `count` per `per` milliseconds. */
export type Rate = { count: number; per: number };
export const RATE_PATTERN = "^\\s*[1-9]\\d*\\s*/\\s*(?!0+(\\.0*)?\\s*(ms|s|m|h|d)\\s*$)(\\d+(\\.\\d+)?)?\\s*(ms|s|m|h|d)\\s*$";

/** Returns the rate, or undefined when the text is not one (a count over a duration whose number may be left out: "10/s"). */
export function parseRate(text: string): Rate | undefined {
  const m = /^\s*([1-9]\d*)\s*\/\s*(.*)$/.exec(text);
  if (!m) return undefined;
  const span = m[2]!.trim();
  const per = parseDuration(/^\d/.test(span) ? span : `1${span}`);
  return per && per > 0 ? { count: Number(m[1]), per } : undefined;
}

/** A rate such as "10/s", "600/m" or "5/10s": { count, per } (per in milliseconds) once loaded. */
export const RateValue = (description: string) =>
  t
    .Transform(t.String({ pattern: RATE_PATTERN, description, problem: 'must be a rate such as "10/s", "600/m" or "5/10s" (over a span longer than zero)' }))
    .Decode((text) => parseRate(text)!)
    .Encode((rate) => `${rate.count}/${rate.per}ms`);
