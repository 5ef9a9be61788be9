import { createFieldReader } from "./json-fields";
import { CONTROL } from "../lib/terminal";

/**
 * A hook's event type (`push`, `invoice.paid`, `orders/create`): where the sender says what
 * happened. A preset guard knows where its provider puts it; on a channel without one, well-known
 * headers and common body fields are tried. Worked out at catch, in one scan of at most
 * EVENT_TYPE_SCAN_MAX bytes of a JSON body (none when a header says it), and stored with the hook.
 */

/** Bodies larger than this are not scanned: their event type is "" unless a header gives it. */
export const EVENT_TYPE_SCAN_MAX = 64 * 1024;
/** Longest event type kept; longer ones are cut. */
export const EVENT_TYPE_MAX = 128;

/** Where one provider puts its event type: a header, else body fields (the first one present wins). */
export type EventTypeRule = {
  /** Lower-case header name. */
  header?: string;
  /** Dotted paths of string fields of a JSON body, in order of preference. */
  body?: readonly string[];
  /**
   * Fields of a JSON body whose first string follows the header's value after a dot: GitHub's
   * `action` makes `X-GitHub-Event: pull_request` `pull_request.opened`. Without one, the header's value.
   */
  action?: readonly string[];
  /** Worked out from a body no field names it in (Twilio's forms); "" when it cannot tell. */
  derive?: (headers: HeaderRecord, body: Uint8Array) => string;
};

/** Headers that name the event, as senders send them (the first present wins). */
export const EVENT_TYPE_HEADERS = [
  "x-github-event",
  "x-gitlab-event",
  "x-event-key", // Bitbucket
  "x-gitea-event",
  "x-gogs-event",
  "x-shopify-topic",
  "x-wc-webhook-topic", // WooCommerce
  "twitch-eventsub-subscription-type",
  "x-contentful-topic",
  "linear-event",
  "x-patreon-event",
  "x-event-type",
  "x-webhook-event",
] as const;

/** Headers whose event has an action in the body, and where (GitHub's `action`, as its preset reads it). */
const HEADER_ACTIONS: Readonly<Record<string, readonly string[]>> = { "x-github-event": ["action"] };

/** Body fields that name the event, in order of preference (Slack's `event.type` before its `type`). */
export const EVENT_TYPE_FIELDS: readonly string[] = ["event.type", "event_type", "eventType", "type", "event", "topic"];

const PLAIN = /^[\w./:@-]+$/;

/**
 * Control and format characters, except a zero-width joiner between two emoji (captured), which
 * makes them one (👩‍💻): it hides nothing and turns nothing around.
 */
const FORMAT = /(\u200D(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}]\uFE0F?\u200D)(?=\p{Extended_Pictographic}))|[\p{Cc}\p{Cf}]/gu;

/**
 * Printable (no control character, C1 included: U+009B is a terminal's CSI), trimmed, at most
 * EVENT_TYPE_MAX characters. Format characters (\p{Cf}: bidirectional overrides, zero-width
 * spaces and joiners) go too, but for a joiner inside an emoji: a label must read as what it is,
 * and an unterminated right-to-left override would turn the text after it around.
 */
export function cleanEventType(value: string | undefined): string {
  if (!value) return "";
  if (value.length <= EVENT_TYPE_MAX && PLAIN.test(value)) return value;
  // At most 8 times what is kept is looked at (a sender's value may be 64 KiB of joiners); a joiner
  // is looked for only when there is one (the look-behind costs six times the plain pass).
  const head = value.length > 8 * EVENT_TYPE_MAX ? value.slice(0, 8 * EVENT_TYPE_MAX) : value;
  const clean = (head.includes("\u200D") ? head.replace(FORMAT, (_, joiner) => joiner ?? "") : head.replace(CONTROL, "")).trim();
  // Cut, it may end inside a character (half of a surrogate pair) or on an emoji's joiner.
  return clean.length > EVENT_TYPE_MAX
    ? clean
        .slice(0, EVENT_TYPE_MAX)
        .replace(/[\uD800-\uDBFF]$/, "")
        .replace(/\u200D+$/, "")
    : clean;
}

function isJson(body: Uint8Array): boolean {
  for (let i = 0; i < body.length && i < 64; i++) {
    const c = body[i]!;
    if (c === 0x7b) return true;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return false;
}

/** The request's headers as the catching endpoint reads them once (Headers#toJSON: lower-case names). */
export type HeaderRecord = Record<string, string | string[] | undefined>;

const readers = new WeakMap<readonly string[], (body: Uint8Array) => Map<string, string>>();

/** The first of `paths` present as a string in a JSON object body (readers are compiled once per list). */
function firstField(body: Uint8Array, paths: readonly string[]): string | undefined {
  if (!isJson(body)) return undefined;
  let read = readers.get(paths);
  if (!read) readers.set(paths, (read = createFieldReader(paths, EVENT_TYPE_SCAN_MAX)));
  const found = read(body);
  for (const p of paths) {
    const v = found.get(p);
    if (v) return v;
  }
  return undefined;
}

function headerOf(headers: HeaderRecord, name: string): string | undefined {
  const v = headers[name];
  return typeof v === "string" ? v : undefined;
}

/** A header's event with its action from the body when there is one (`pull_request.opened`). */
function withAction(value: string, body: Uint8Array, action: readonly string[] | undefined): string {
  const done = action && firstField(body, action);
  return cleanEventType(done ? `${value}.${done}` : value);
}

/** The event type by one provider's rule; "" when its place is empty. */
export function eventTypeBy(rule: EventTypeRule, headers: HeaderRecord, body: Uint8Array): string {
  if (rule.header !== undefined) {
    const value = headerOf(headers, rule.header);
    if (value) return withAction(value, body, rule.action);
  }
  const found = rule.body ? cleanEventType(firstField(body, rule.body)) : "";
  return found || (rule.derive ? rule.derive(headers, body) : "");
}

/**
 * The event type of a hook no preset guard describes: a well-known header (with GitHub's action),
 * else a common field of a JSON body, else a Twilio form's.
 */
export function detectEventType(headers: HeaderRecord, body: Uint8Array): string {
  for (const name of EVENT_TYPE_HEADERS) {
    const value = headerOf(headers, name);
    if (value) return withAction(value, body, HEADER_ACTIONS[name]);
  }
  return isJson(body) ? cleanEventType(firstField(body, EVENT_TYPE_FIELDS)) : twilioEventType(headers, body);
}

const FORM = "application/x-www-form-urlencoded";
const TWILIO_ACCOUNT = /^AC[0-9a-z]{32}$/i;

/**
 * Twilio's form callbacks (messages, calls, recordings) name no event: it is the resource their
 * Sid fields show, then its status (`message.received`, `message.delivered`, `call.ringing`,
 * `recording.completed`). Only a form with a Twilio AccountSid, of at most EVENT_TYPE_SCAN_MAX
 * bytes, is read; "" otherwise.
 */
export function twilioEventType(headers: HeaderRecord, body: Uint8Array): string {
  const type = headerOf(headers, "content-type");
  if (!type?.toLowerCase().startsWith(FORM) || body.byteLength > EVENT_TYPE_SCAN_MAX) return "";
  const f = new URLSearchParams(new TextDecoder().decode(body));
  if (!TWILIO_ACCOUNT.test(f.get("AccountSid") ?? "")) return "";
  const [resource, status] = f.has("RecordingSid")
    ? ["recording", f.get("RecordingStatus")]
    : f.has("CallSid")
      ? ["call", f.get("CallStatus")]
      : f.has("MessageSid") || f.has("SmsSid")
        ? ["message", f.get("MessageStatus") ?? f.get("SmsStatus")]
        : [];
  if (!resource) return "";
  return cleanEventType(status ? `${resource}.${status}` : resource);
}
