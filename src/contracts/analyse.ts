import { type ContractChecker, fieldPaths, type Verdict } from "./check";
import { allPathsKnown } from "./known-paths";

/** Seen (channel, event type, path) triples kept in memory before asking the database; past this the set starts again. */
const SEEN_CACHE_MAX = 200_000;

/** A caught hook as the analysis reads it: plain data, so that it can cross to a thread. */
export type AnalyseInput = { id: string; channel: string; eventType: string; headers: string; body: Uint8Array };

/**
 * A hook's check: its verdict, and the field paths ("" for the event type itself) not known seen
 * on its channel and event type, which the database is asked to claim (index.ts).
 */
export type Analysed = Verdict & { fresh: string[] };

/** Analyses a batch in catch order; pure CPU work, the same on the serving thread or another. */
export type Analyse = (hooks: readonly AnalyseInput[]) => Analysed[] | Promise<Analysed[]>;

/**
 * The CPU side of a contract check: parses each body, checks it (check.ts), walks its field paths
 * and keeps only those not yet seen for its channel and event type. A path handed out as fresh is
 * remembered at once, so a later hook of the same batch does not ask for it again: the database
 * claim (index.ts) decides which hook gets the mark, as before.
 */
export function createAnalyse(checker: ContractChecker): Analyse {
  // Per channel and event type, the field paths known seen ("" is the event type itself).
  const seen = new Map<string, Set<string>>();
  let seenSize = 0;

  // The known paths of the last hook's channel and event type; forgotten whenever `seen` changes.
  const last: { channel?: string; eventType?: string; known?: Set<string> } = {};

  function fresh(channel: string, eventType: string, paths: string[]): string[] {
    const key = `${channel}\n${eventType}`;
    let known = seen.get(key);
    const out = known ? paths.filter((p) => !known!.has(p)) : paths;
    if (out.length === 0) return out;
    last.channel = undefined;
    if (seenSize > SEEN_CACHE_MAX) seen.clear(), (seenSize = 0), (known = undefined);
    if (!known) seen.set(key, (known = new Set()));
    for (const p of out) known.add(p);
    seenSize += out.length;
    return out;
  }

  return (hooks) =>
    hooks.map((h) => {
      // The last hook's channel and event type are mostly this one's (a batch of one sender).
      if (h.channel !== last.channel || h.eventType !== last.eventType)
        (last.channel = h.channel), (last.eventType = h.eventType), (last.known = seen.get(`${h.channel}\n${h.eventType}`));
      const known = last.known;
      // Only the headers that name a provider with schemas matter: most hooks have none of them.
      let headers: Record<string, string> = NO_HEADERS;
      if (h.headers.includes('"x-github-event"') || h.headers.includes('"webhook-id"')) {
        try {
          headers = JSON.parse(h.headers) as Record<string, string>;
        } catch {}
      }
      const subject = { channel: h.channel, eventType: h.eventType, headers };
      // Most hooks have no schema and only fields seen before on their channel and event type:
      // their result is `none` with nothing fresh, read from the bytes without parsing the body
      // (known-paths.ts; parsing and walking it cost the serving thread 3 to 6 µs a hook, issue 29).
      if (known?.has("") && !checker.applies(subject) && allPathsKnown(h.body, known)) return { result: "none", violations: [], fresh: [] };
      const body = parseBody(h.body);
      const verdict = checker.check({ ...subject, body });
      const paths = body === undefined ? [] : fieldPaths(body);
      return { ...verdict, fresh: fresh(h.channel, h.eventType, ["", ...paths]) };
    });
}

const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The serving thread's part of a check when the rest runs on the checks' thread (index.ts): which
 * hooks need no analysis, their result `none` with nothing fresh (no schema applies and every field
 * path is known, read from the bytes: known-paths.ts, about 1.4 µs), as `createAnalyse` would
 * answer them. What the analyses hand out as fresh is `learn`ed here, so that this thread knows
 * what the analysing one has seen (a subset of it: a hook this thread does not know to be quick
 * is analysed, which answers it the same).
 */
export function createTriage(checker: ContractChecker): {
  quick(h: AnalyseInput): boolean;
  learn(channel: string, eventType: string, fresh: readonly string[]): void;
} {
  const seen = new Map<string, Set<string>>();
  let seenSize = 0;
  const last: { channel?: string; eventType?: string; known?: Set<string> } = {};
  return {
    quick(h) {
      if (h.channel !== last.channel || h.eventType !== last.eventType)
        (last.channel = h.channel), (last.eventType = h.eventType), (last.known = seen.get(`${h.channel}\n${h.eventType}`));
      const known = last.known;
      if (!known?.has("")) return false;
      // A provider's schema may apply: analysed without parsing the headers here (an analysis of
      // a hook that turns out to have none answers it `none` all the same).
      if (h.headers.includes('"x-github-event"') || h.headers.includes('"webhook-id"')) return false;
      return !checker.applies({ channel: h.channel, eventType: h.eventType, headers: NO_HEADERS }) && allPathsKnown(h.body, known);
    },
    learn(channel, eventType, fresh) {
      if (fresh.length === 0) return;
      const key = `${channel}\n${eventType}`;
      last.channel = undefined;
      if (seenSize > SEEN_CACHE_MAX) seen.clear(), (seenSize = 0);
      let known = seen.get(key);
      if (!known) seen.set(key, (known = new Set()));
      for (const p of fresh) known.add(p);
      seenSize += fresh.length;
    },
  };
}

const decoder = new TextDecoder();

/** The body as JSON, or undefined when it is not JSON (an object or array). */
function parseBody(body: Uint8Array): unknown {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  if (body[i] !== 0x7b && body[i] !== 0x5b) return undefined;
  try {
    return JSON.parse(decoder.decode(body));
  } catch {
    return undefined;
  }
}
