import type { TObject } from "@sinclair/typebox";
import type { Problem } from "./problems";
import type { TranslateInput } from "./translate";
import type { CompiledSchema } from "./compiled-schema";

/**
 * What the loader asks of the services whose settings it reads but does not know: each service's
 * check module implements its part, and the composition hands the whole to the loader
 * (src/load-config.ts assembles the default one). The loader imports no service.
 */
export type ConfigChecks = {
  guards: GuardChecks;
  /** What the [translate] schema cannot say (known languages, whole cents); paths from the root ("translate.rates..."). */
  translate: (section: TranslateInput) => Problem[];
  /** A handler's `when` (a search query): checked, then compiled once when the config loads. */
  when: WhenChecks;
  /** What a `resign` table's schema cannot say (a provider that can be re-signed, its key given); paths relative to the table. */
  resign?: (entry: { kind: string; secret?: string; private_key?: string }) => Problem[];
  /** A channel's JSON Schema file (an absolute path): compiled, or the message saying what is wrong with it. */
  schema?: (file: string) => CompiledSchema | string;
};

/** A hook as a handler's `when` reads it (hooks/store.ts's RawHook has these). */
export type MatchableHook = {
  id: string;
  channel: string;
  method: string;
  query: string;
  ip: string;
  headers: Record<string, string>;
  body: Uint8Array;
  eventType: string;
  /** What `status:` and `has:attempts` read; a hook as caught (pending, no attempts) when absent. `has:refusal` is false on it (marked after the catch). */
  status?: string;
  attempts?: boolean;
  /** What `verified:` reads (hooks/store.ts RawHook); unknown when absent. */
  verified?: boolean | null;
};

/** A handler's `when` as loaded: the query as written, and the test compiled from it. */
export type HookMatcher = {
  readonly query: string;
  /** Whether the hook is one the handler wants; never rejects (a payload that does not decode has no payload fields). */
  matches(hook: MatchableHook): Promise<boolean>;
};

export type WhenChecks = {
  /** What is wrong with the query, saying where; undefined when it parses. */
  problem(query: string): string | undefined;
  /** The matcher of a query `problem` accepted. */
  compile(query: string): HookMatcher;
};

export type GuardChecks = {
  /** The schema of a [[guards]] entry by kind. */
  kinds: Record<string, TObject>;
  /** The kinds an unknown kind's message names when none is close: those besides the providers `mailroom providers` lists. */
  others: readonly string[];
  /** What an entry's kind schema cannot say, for an entry it accepted (a secret given, CIDR blocks); paths relative to the entry. */
  problems: (entry: Record<string, unknown>) => Problem[];
};
