import { Type as t, type Static, type StaticDecode } from "@sinclair/typebox";
import { DurationValue, SizeValue } from "./values";
import { FaultRule } from "./faults";

/**
 * The [translate] section: the translation ordering service. Accounts are seeded into the
 * database the first time Mailroom sees their id; after that the database holds their balance
 * and overdraft switch (the admin API changes them), while their API keys always come from here.
 */
const strict = { additionalProperties: false } as const;
const Key = (description: string) => t.Optional(t.String({ minLength: 8, description }));
const KeyEnv = t.Optional(t.String({ description: "environment variable holding api_key (the loader resolves it)" }));
const Dollars = (description: string, def?: number) => t.Number({ minimum: -1e9, maximum: 1e9, description, ...(def === undefined ? {} : { default: def }) });
const Duration = (def: string, description: string) => DurationValue({ default: def, description });

const Account = t.Object(
  {
    id: t.Integer({ minimum: 1, maximum: 2 ** 31, description: "account id, as GET /account answers it" }),
    balance: Dollars("opening balance in US dollars (cents at most); used only when the account is first created", 0),
    overdraft: t.Boolean({ default: false, description: "opening value of balance_overdraft_allowed" }),
    api_keys: t.Array(t.String({ minLength: 8 }), { default: [], uniqueItems: true, description: "keys of this account (Basic username or Bearer token)" }),
    api_key: Key('one more key, typically given as api_key_env = "VAR"'),
    api_key_env: KeyEnv,
  },
  strict,
);

const Pair = t.Object(
  {
    source: t.String({ description: "source language code" }),
    target: t.String({ description: "target language code" }),
    rate: t.Number({ minimum: 0, maximum: 1e6, description: "US dollars per 1000 characters" }),
  },
  strict,
);

const Rates = t.Object(
  {
    default: t.Number({
      minimum: 0,
      maximum: 1e6,
      default: 20,
      description: "US dollars per 1000 characters for any pair of two different supported languages",
    }),
    pairs_only: t.Boolean({ default: false, description: "true: only the listed pairs have a rate (others answer LANGUAGE_NOT_FOUND)" }),
    pairs: t.Array(Pair, { default: [], description: "rates that override the default" }),
  },
  { ...strict, default: {} },
);

const Translator = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100, description: "shown as the order's translator" }),
    api_key: Key("the translator API key (or api_key_env)"),
    api_key_env: KeyEnv,
  },
  strict,
);

const Admin = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100, default: "admin", description: "recorded in the ledger" }),
    api_key: Key("the administrator API key (or api_key_env)"),
    api_key_env: KeyEnv,
  },
  strict,
);

const Simulator = t.Object(
  {
    enabled: t.Boolean({ default: false, description: "run the simulated translator in the runner" }),
    name: t.String({ minLength: 1, maxLength: 100, default: "Simulator", description: "its translator name" }),
    accept_after: Duration("2s", "accepts a QUEUE or REVISION order this long after it got there"),
    complete_after: Duration("5s", "completes an order it accepted this long after accepting it"),
  },
  { ...strict, default: {} },
);

const RateLimit = t.Object(
  {
    requests: t.Integer({ minimum: 0, default: 100, description: "requests allowed per key per period (the burst); 0 turns the limit off" }),
    per: Duration("1s", "the period over which `requests` refill"),
  },
  { ...strict, default: {} },
);

export const TranslateSection = t.Object(
  {
    maintenance: t.Boolean({ default: false, description: "answer 503 on the customer and translator APIs" }),
    maintenance_retry_after: Duration("60s", "Retry-After sent with the maintenance 503"),
    max_body: SizeValue({ default: "30MB", description: "larger request bodies get 413" }, 1),
    accounts: t.Array(Account, { default: [] }),
    rates: Rates,
    translators: t.Array(Translator, { default: [] }),
    admins: t.Array(Admin, { default: [] }),
    simulator: Simulator,
    rate_limit: RateLimit,
    faults: t.Array(FaultRule, { default: [], maxItems: 100, description: "rules that make revisions A and B answer late or with errors, on purpose" }),
  },
  { ...strict, default: {} },
);

/** [translate] as the file writes it (what its checks read). */
export type TranslateInput = Static<typeof TranslateSection>;
/** [translate] as the loader converts it: durations in milliseconds, max_body in bytes. */
export type TranslateConfig = StaticDecode<typeof TranslateSection>;
