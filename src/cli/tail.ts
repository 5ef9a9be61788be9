import { doublingDelay } from "../lib/backoff";
import { readEvents } from "../lib/sse";
import { printable } from "../lib/terminal";
import { noMore, parseFlags } from "../lib/args";
import { ClientError, type Client } from "./client";
import type { Io } from "../lib/io";
import { bodyBytes, bodySize, type ExtendedHook, type WireHook } from "./show";
import { decodePayload } from "../hooks/payload";
import { searchDoc } from "../search/document";
import { evaluate, parseTerms, usesPayload } from "../search/query";

/**
 * `tail -q`: the query evaluated on each hook of the stream, as a search would judge it (search/query.ts).
 * The stream's Hook carries no attempts: `has:attempts` is false here; nor marks (`has:refusal` is false) nor read marks (`is:unread` holds).
 */
function streamMatcher(q: string): (hook: ExtendedHook) => Promise<boolean> {
  const node = parseTerms(q).node!;
  const payload = usesPayload(node);
  return async (hook) => {
    const body = bodyBytes(hook);
    const h = {
      id: hook.id,
      channel: hook.channel,
      method: hook.method,
      query: hook.query,
      ip: hook.ip,
      headers: hook.headers,
      body,
      eventType: hook.event_type ?? "",
    };
    const doc = searchDoc(h, payload ? await decodePayload(hook.headers, body) : null);
    // The stream sends a hook again once its contract check is kept (docs/contracts.md): `schema:` and
    // `is:new-*` match then; its tags come with it.
    const facts = { id: hook.id, status: hook.status, ip: hook.ip, size: body.byteLength, tags: hook.tags, contract: hook.contract };
    return evaluate(node, doc, facts, Date.now());
  };
}

/** A refusal as the stream sends it (the fields tail prints). */
type StreamRefusal = {
  method: string;
  channel: string;
  guard: string;
  status: number;
  reason: string;
  created_at: string;
  diagnosis: { cause: string; message: string } | null;
};

/** The wait before reconnecting: 250 ms, doubled up to 5 s while Mailroom stays away. */
const RETRY = { initial: 250, max: 5_000 };
/** Hooks whose last printed status is remembered, so a change that kept the status prints nothing. */
const REMEMBERED = 10_000;

/** Answers that no retry will change: a bad filter, a token that no longer works. */
const FINAL = new Set([400, 401, 403, 404]);

const pad2 = (n: number) => String(n).padStart(2, "0");
/** Local `HH:MM:SS.mmm`, like the lines of `mailroom serve`. */
function clockTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, "0")}`;
}

/** One line per hook: time caught, method, channel, id, status, size, content type, event type. */
export function formatTailLine(hook: WireHook & Partial<ExtendedHook>): string {
  return [
    clockTime(hook.created_at),
    hook.method.padEnd(6),
    hook.channel,
    hook.id,
    hook.status.padEnd(9),
    `${bodySize(hook)} B`,
    printable(hook.content_type || "-"),
    printable(hook.event_type || "-"),
  ].join("  ");
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done);
  });
}

/**
 * `mailroom tail [--channel C] [--status S] [-q QUERY] [--json]`: follows GET /v1/stream and prints a line
 * per hook caught, and again when its status changes. When the connection drops it reconnects
 * with the last event id; after a restart of Mailroom (the stream answers `reset`) it lists the
 * hooks caught since tail started and prints those it has not shown. Ends with 0 when `signal`
 * aborts (SIGINT); with 1 when the first connection fails or Mailroom refuses the stream.
 */
export async function tailCommand(argv: string[], client: Client, io: Io, signal: AbortSignal): Promise<number> {
  // `-q QUERY` is --search (docs/search.md's query language).
  const p = parseFlags(
    argv.map((a) => (a === "-q" ? "--search" : a)),
    { channel: "value", status: "value", search: "value", json: "bool" },
  );
  noMore(p, 0);
  const filter = new URLSearchParams();
  for (const k of ["channel", "status"]) if (p.values[k] !== undefined) filter.set(k, p.values[k]!);
  const search = p.values.search;
  // Mailroom judges the query first: one that does not parse is its 400, printed as hooks ls prints it.
  if (search !== undefined) await client.call("GET", `/v1/hooks?limit=1&q=${encodeURIComponent(search)}`);
  const wanted = search === undefined ? undefined : streamMatcher(search);
  const json = p.bools.has("json");
  const startedAt = io.now();
  /** id -> the status last printed. */
  const shown = new Map<string, string>();

  function print(hook: ExtendedHook): void {
    if (shown.get(hook.id) === hook.status) return;
    shown.delete(hook.id);
    shown.set(hook.id, hook.status);
    if (shown.size > REMEMBERED) shown.delete(shown.keys().next().value!);
    io.out((json ? JSON.stringify(hook) : formatTailLine(hook)) + "\n");
  }

  /**
   * A refusal when it happens, then (a second event with the same id, once worked out after the
   * answer) why a signature failed, on a line of its own under it (docs/diagnoses.md).
   */
  function printRefusal(r: StreamRefusal): void {
    if (json) return io.out(`${JSON.stringify(r)}\n`);
    if (!r.diagnosis) {
      const who = r.guard ? ` by ${printable(r.guard)}` : "";
      return io.out(`${clockTime(r.created_at)}  REFUSED ${printable(r.method)} ${printable(r.channel)} ${r.status}${who}: ${printable(r.reason)}\n`);
    }
    io.out(`    why: ${printable(r.diagnosis.message)} (${printable(r.diagnosis.cause)})\n`);
  }

  /** After a restart: the hooks (of the filter) caught since tail started that were not printed. */
  async function catchUp(): Promise<void> {
    const q = new URLSearchParams(filter);
    if (search !== undefined) q.set("q", search);
    q.set("limit", "100");
    // With the event type, as the stream's hooks have it.
    q.set("include", "extensions");
    const page = await client.call<ExtendedHook[]>("GET", `/v1/hooks?${q}`);
    for (const hook of page.reverse()) if (Date.parse(hook.created_at) >= startedAt - 1000) print(hook);
  }

  const path = `/v1/stream${filter.size ? `?${filter}` : ""}`;
  let lastId: string | undefined;
  let connected = false;
  let online = false;
  let failures = 0;
  while (!signal.aborted) {
    try {
      const res = await client.stream(path, lastId, signal);
      if (!res.ok) throw await client.errorOf(res);
      io.err(connected ? "mailroom: reconnected\n" : `following hooks at ${client.base}${filter.size ? ` (${filter})` : ""}; Ctrl-C to stop\n`);
      connected = online = true;
      failures = 0;
      for await (const e of readEvents(res.body!)) {
        if (e.id) lastId = e.id;
        if (e.event === "hook") {
          const hook = JSON.parse(e.data) as ExtendedHook;
          if (!wanted || (await wanted(hook))) print(hook);
        } else if (e.event === "refusal") printRefusal(JSON.parse(e.data) as StreamRefusal);
        else if (e.event === "reset") await catchUp();
      }
    } catch (error) {
      if (signal.aborted) break;
      // Before the first connection every failure is reported; after it, only the final answers.
      if (!connected || (error instanceof ClientError && FINAL.has(error.status ?? 0))) throw error;
    }
    if (signal.aborted) break;
    if (online) io.err(`mailroom: connection to ${client.base} lost; reconnecting\n`);
    online = false;
    await pause(doublingDelay(failures++, RETRY), signal);
  }
  return 0;
}
