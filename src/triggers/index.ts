import { CLERK, OPENAI, RESEND } from "./events/standard";
import { LINEAR, PADDLE } from "./events/billing";
import { DISCORD, SENDGRID, TWILIO, ZOOM } from "./events/messaging";
import { SHOPIFY } from "./events/shopify";
import { SLACK } from "./events/slack";
import { STRIPE } from "./events/stripe";
import { didYouMean, suggest } from "../lib/suggest";
import { fresh } from "./fresh";
import { githubEvents } from "./github";
import type { EventFactory } from "./types";

/**
 * Realistic sample events per provider, for `mailroom trigger` and the test helper's trigger():
 * GitHub's from @octokit/webhooks-examples, the others written from each provider's published
 * schemas. Ids and times are fresh on every build.
 */
const CATALOG: Record<string, () => Promise<Record<string, EventFactory>> | Record<string, EventFactory>> = {
  github: githubEvents,
  stripe: () => STRIPE,
  shopify: () => SHOPIFY,
  slack: () => SLACK,
  twilio: () => TWILIO,
  sendgrid: () => SENDGRID,
  paddle: () => PADDLE,
  discord: () => DISCORD,
  linear: () => LINEAR,
  zoom: () => ZOOM,
  clerk: () => CLERK,
  resend: () => RESEND,
  openai: () => OPENAI,
};

export const TRIGGER_PROVIDERS = Object.keys(CATALOG);

/** Thrown for an unknown provider or event, or an override that cannot apply. */
export class TriggerError extends Error {}

/** `unknown provider stirpe (did you mean stripe?)`, else with the providers there are. */
export function unknownProvider(provider: string): string {
  const near = didYouMean(provider, TRIGGER_PROVIDERS);
  return near ? `unknown provider ${provider}${near}` : `unknown provider ${provider}; one of ${TRIGGER_PROVIDERS.join(", ")}`;
}

/** Every provider with its events, sorted. */
export async function triggerList(): Promise<{ provider: string; events: string[] }[]> {
  return Promise.all(TRIGGER_PROVIDERS.map(async (provider) => ({ provider, events: Object.keys(await CATALOG[provider]!()).sort() })));
}

export type Built = { body: Uint8Array; contentType: string; headers: Record<string, string> };

/**
 * The event `event` of `provider` with fresh ids and times, `overrides` applied (`path` is a dotted
 * path into the JSON body, or a form field). Throws TriggerError.
 */
export async function buildEvent(provider: string, event: string, overrides: Record<string, unknown> = {}, now = Date.now()): Promise<Built> {
  const load = CATALOG[provider];
  if (!load) throw new TriggerError(unknownProvider(provider));
  const events = await load();
  const make = events[event];
  if (!make) {
    const near = suggest(event, Object.keys(events));
    throw new TriggerError(`${provider} has no event ${event}${near ? ` (did you mean ${near}?)` : `; mailroom trigger --list ${provider} shows them`}`);
  }
  const sample = make(fresh(now));
  if (sample.form) {
    const fields = { ...sample.body, ...Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])) };
    return {
      body: new TextEncoder().encode(new URLSearchParams(fields).toString()),
      contentType: "application/x-www-form-urlencoded",
      headers: sample.headers ?? {},
    };
  }
  let body = sample.body;
  for (const [path, value] of Object.entries(overrides)) body = setPath(body, path, value);
  return { body: new TextEncoder().encode(JSON.stringify(body)), contentType: "application/json", headers: sample.headers ?? {} };
}

/** A command-line value: JSON when it parses as JSON (5000, true, {"a":1}), else the text. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A copy of `root` with `value` at the dotted `path` (numbers index arrays); objects are created on the way. */
export function setPath(root: unknown, path: string, value: unknown): unknown {
  const keys = path.split(".");
  if (keys.some((k) => k === "" || k === "__proto__" || k === "constructor" || k === "prototype")) throw new TriggerError(`--override ${path}: not a path`);
  const copy = structuredClone(root) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) return void (at[k] = value);
    const next = at[k];
    if (next === null || typeof next !== "object") at[k] = /^\d+$/.test(keys[i + 1]!) ? [] : {};
    at = at[k] as Record<string, unknown>;
  });
  return copy;
}
