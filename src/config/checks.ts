import type { TObject } from "@sinclair/typebox";
import type { Problem } from "./problems";
import type { TranslateInput } from "./translate";

/**
 * What the loader asks of the services whose settings it reads but does not know: each service's
 * check module implements its part, and the composition hands the whole to the loader
 * (src/load-config.ts assembles the default one). The loader imports no service.
 */
export type ConfigChecks = {
  guards: GuardChecks;
  /** What the [translate] schema cannot say (known languages, whole cents); paths from the root ("translate.rates..."). */
  translate: (section: TranslateInput) => Problem[];
  /** What a `resign` table's schema cannot say (a provider that can be re-signed, its key given); paths relative to the table. */
  resign?: (entry: { kind: string; secret?: string; private_key?: string }) => Problem[];
};

export type GuardChecks = {
  /** The schema of a [[guards]] entry by kind. */
  kinds: Record<string, TObject>;
  /** The kinds an unknown kind's message names when none is close: those besides the providers `mailroom providers` lists. */
  others: readonly string[];
  /** What an entry's kind schema cannot say, for an entry it accepted (a secret given, CIDR blocks); paths relative to the entry. */
  problems: (entry: Record<string, unknown>) => Problem[];
};
