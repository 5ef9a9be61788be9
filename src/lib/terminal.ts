import type { Log } from "./log";

/**
 * The live terminal of `mailroom serve`: one line per caught hook, per refusal and per handler
 * attempt, each with a level. Text (coloured when stdout is a terminal) or JSON lines; `quiet`
 * keeps warnings and errors only. Lines are built from what the caller already has (no parsing
 * of bodies), and a batch of caught hooks is written with one write.
 */
export type LogFormat = "text" | "json";
export type Level = "info" | "warn" | "error";

export type CaughtLine = {
  id: string;
  channel: string;
  method: string;
  headers: string;
  body: Uint8Array;
  createdAt: number;
  /** The request's Content-Type as caught (null: none); read from `headers` when not given. */
  contentType?: string | null;
};
export type RefusedLine = { id: string; kind: string; channel: string; guard: string; status: number; reason: string; ip: string; method: string };
export type AttemptLine = {
  hookId: string;
  channel: string;
  handler: string;
  attempt: number;
  /** succeeded, failed (another attempt is queued) or gave_up. */
  outcome: string;
  httpStatus?: number;
  exitCode?: number;
  ms: number;
  error?: string;
  /** When the next attempt comes, for a failed one that has one (none: gave up, or the hook was discarded). */
  nextInMs?: number;
};

/** What the service reports as it works; silentActivity in tests. */
export interface Activity {
  /** A batch of hooks is committed (called once per batch, after it is durable). */
  caught(hooks: readonly CaughtLine[]): void;
  refused(refusal: RefusedLine): void;
  attempt(attempt: AttemptLine): void;
}

export const silentActivity: Activity = { caught() {}, refused() {}, attempt() {} };

export type TerminalOptions = {
  format: LogFormat;
  quiet: boolean;
  color: boolean;
  /** Where lines go (stdout); warnings and errors of the general log go to `writeError`. */
  write: (text: string) => void;
  writeError?: (text: string) => void;
  now?: () => number;
};

const COLORS = { info: "\x1b[32m", warn: "\x1b[33m", error: "\x1b[31m", dim: "\x1b[2m", bold: "\x1b[1m", reset: "\x1b[0m" };
const CONTENT_TYPE = /"content-type":"((?:[^"\\]|\\.)*)"/;

/** The Content-Type of stored headers (their JSON text), without parsing the whole object. */
export function contentTypeOf(headersJson: string): string {
  const m = CONTENT_TYPE.exec(headersJson);
  return m ? m[1]!.replace(/\\(.)/g, "$1") : "";
}

/** Control characters, and format characters (\p{Cf}: bidirectional overrides, zero-width), which would hide or reorder what a line says. */
export const CONTROL = /[\x00-\x1f\x7f-\x9f\p{Cf}]/gu;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const escapeCode = (code: number) =>
  code < 0x100 ? `\\x${code.toString(16).padStart(2, "0")}` : code < 0x10000 ? `\\u${code.toString(16).padStart(4, "0")}` : `\\u{${code.toString(16)}}`;

/** Text a sender chose (a refused channel name, a content type) with its control and format characters written as escapes. */
export function printable(text: string): string {
  // Most text is printable ASCII: one cheap test instead of a Unicode-aware replace (a line per caught hook).
  if (!NOT_PLAIN.test(text)) return text;
  return text.replace(CONTROL, (c) => NAMED[c] ?? escapeCode(c.codePointAt(0)!));
}
const NOT_PLAIN = /[^\x20-\x7e]/;

/** Like printable(), for text of several lines (a body shown for reading): line breaks and tabs stay. */
export function printableLines(text: string): string {
  return text.replace(CONTROL, (c) => (c === "\n" || c === "\t" ? c : (NAMED[c] ?? escapeCode(c.codePointAt(0)!))));
}

const pad2 = (n: number) => String(n).padStart(2, "0");
let cachedSecond = -1;
let cachedPrefix = "";
/** Local `HH:MM:SS.mmm`; the part down to the second is computed once per second. */
function clockTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== cachedSecond) {
    const d = new Date(ms);
    cachedSecond = second;
    cachedPrefix = `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.`;
  }
  return cachedPrefix + String(ms - second * 1000).padStart(3, "0");
}

/**
 * Gathers what is written within `ms` into one write (a busy server writes its lines a few
 * times a second, not once per batch). `flush` writes what is pending now (at stop).
 */
export function coalesce(write: (text: string) => void, ms = 50): { write: (text: string) => void; flush: () => void } {
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending) write(pending);
    pending = "";
  };
  return {
    write(text) {
      pending += text;
      timer ??= setTimeout(flush, ms);
    },
    flush,
  };
}

/** `850 ms`, `1 s`, `1.5 s`, `45 s`, `3 min`, `2 h`: how long until something, as a person says it. */
export function spokenDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 10) return `${Number(s.toFixed(1))} s`;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Number((s / 3600).toFixed(1))} h`;
}

/**
 * Caught hooks listed one line each per second, at most: past it, the rest of the second's hooks
 * are counted by channel and said in one `hooks` line when the second is over.
 */
export const HOOK_LINES_PER_SECOND = 50;

export function createTerminal(opts: TerminalOptions): { activity: Activity; log: Log } {
  const now = opts.now ?? Date.now;
  const writeError = opts.writeError ?? opts.write;
  const c = opts.color ? COLORS : { info: "", warn: "", error: "", dim: "", bold: "", reset: "" };
  const shown = (level: Level) => !opts.quiet || level !== "info";

  /** One line: `time LEVEL what details`, or a JSON object with time, level and event. */
  function format(time: number, level: Level, event: string, text: string, fields: Record<string, unknown>, escaped = false): string {
    if (opts.format === "json") return JSON.stringify({ time: new Date(time).toISOString(), level, event, ...fields }) + "\n";
    const tag = level.toUpperCase().padEnd(5);
    return `${c.dim}${clockTime(time)}${c.reset} ${c[level]}${tag}${c.reset} ${c.bold}${event.padEnd(7)}${c.reset} ${escaped ? text : printable(text)}\n`;
  }

  /**
   * Hook lines written in the current second of `now()`, and the hooks past HOOK_LINES_PER_SECOND
   * counted by channel instead, said in one line once the second is over.
   */
  let lineSecond = -1;
  let lines = 0;
  let unlisted = new Map<string, number>();
  let unlistedTimer: ReturnType<typeof setTimeout> | undefined;
  function sayUnlisted(): void {
    if (unlistedTimer) clearTimeout(unlistedTimer), (unlistedTimer = undefined);
    if (unlisted.size === 0) return;
    const byChannel = [...unlisted].sort((a, b) => b[1] - a[1]);
    unlisted = new Map();
    let count = 0;
    for (const [, n] of byChannel) count += n;
    const shown = byChannel.slice(0, 5).map(([channel, n]) => `${printable(channel)} ${n}`);
    if (byChannel.length > 5) shown.push(`${byChannel.length - 5} more channels`);
    const text = `${count} more caught in that second, not listed one by one (${shown.join(", ")})`;
    opts.write(format(now(), "info", "hooks", text, { count, channels: Object.fromEntries(byChannel) }, true));
  }

  const activity: Activity = {
    caught(hooks) {
      if (!shown("info") || hooks.length === 0) return;
      const second = Math.floor(now() / 1000);
      if (second !== lineSecond) {
        sayUnlisted();
        (lineSecond = second), (lines = 0);
      }
      let out = "";
      for (const h of hooks) {
        // A flood is said in numbers: a line per hook at thousands a second is unreadable, and its
        // formatting and writing cost the thread that catches about 2 µs a hook (docs/benchmarks.md).
        if (lines >= HOOK_LINES_PER_SECOND) {
          unlisted.set(h.channel, (unlisted.get(h.channel) ?? 0) + 1);
          continue;
        }
        lines++;
        const type = h.contentType === undefined ? contentTypeOf(h.headers) : (h.contentType ?? "");
        const size = h.body.byteLength;
        // Each part a sender chose escaped on its own (short, mostly plain): not the whole line again.
        const text = `${printable(h.method)} ${printable(h.channel)} ${printable(h.id)} ${size} B ${type ? printable(type) : "(no content type)"}`;
        out += format(h.createdAt, "info", "hook", text, { method: h.method, channel: h.channel, id: h.id, size, content_type: type }, true);
      }
      if (out) opts.write(out);
      if (unlisted.size > 0 && !unlistedTimer) {
        // Said when the next second's first hook comes, or just after this second ends.
        unlistedTimer = setTimeout(sayUnlisted, (second + 1) * 1000 - now() + 1);
        unlistedTimer.unref?.();
      }
    },
    refused(r) {
      const by = r.guard ? ` by guard ${r.guard}` : "";
      if (r.kind === "handshake") {
        // A provider's challenge answered: not a refusal, and nothing to warn about.
        if (!shown("info")) return;
        const text = `${r.method} ${r.channel} handshake answered${by}: ${r.status} ${r.reason} (from ${r.ip || "unknown"}; refusal ${r.id})`;
        return opts.write(format(now(), "info", "handshake", text, { ...r }));
      }
      const text = `${r.method} ${r.channel} refused${by}: ${r.status} ${r.reason} (from ${r.ip || "unknown"}; refusal ${r.id})`;
      opts.write(format(now(), "warn", "refused", text, { ...r }));
    },
    attempt(a) {
      const level: Level = a.outcome === "succeeded" ? "info" : a.outcome === "gave_up" ? "error" : "warn";
      if (!shown(level)) return;
      // `attempt 1 succeeded after 14 ms: HTTP 200`, `attempt 1 failed after 2 ms: connection refused; next in 1 s`.
      const result = a.httpStatus !== undefined ? `HTTP ${a.httpStatus}` : a.exitCode !== undefined ? `exit ${a.exitCode}` : "";
      const why = a.outcome === "succeeded" ? result : a.error || result;
      const then =
        a.outcome === "gave_up"
          ? "; gave up"
          : a.outcome === "failed"
            ? a.nextInMs === undefined
              ? "; no next attempt"
              : `; next in ${spokenDuration(a.nextInMs)}`
            : "";
      const ended = a.outcome === "succeeded" ? "succeeded" : "failed";
      const text = `${a.handler} ${a.hookId} (${a.channel}) attempt ${a.attempt} ${ended} after ${a.ms} ms${why ? `: ${why}` : ""}${then}`;
      opts.write(
        format(now(), level, "handler", text, {
          handler: a.handler,
          id: a.hookId,
          channel: a.channel,
          attempt: a.attempt,
          outcome: a.outcome,
          http_status: a.httpStatus,
          exit_code: a.exitCode,
          ms: a.ms,
          error: a.outcome === "succeeded" ? undefined : a.error,
          next_in_ms: a.nextInMs,
        }),
      );
    },
  };

  function logAt(level: Level, message: string, fields?: Record<string, unknown>): void {
    if (!shown(level)) return;
    const extra = fields && Object.keys(fields).length > 0 ? " " + JSON.stringify(fields) : "";
    const line = format(now(), level, "log", message + (opts.format === "json" ? "" : extra), { message, ...fields });
    (level === "info" ? opts.write : writeError)(line);
  }
  const log: Log = {
    info: (m, f) => logAt("info", m, f),
    warn: (m, f) => logAt("warn", m, f),
    error: (m, f) => logAt("error", m, f),
  };
  return { activity, log };
}
