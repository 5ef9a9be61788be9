/**
 * `mailroom/testing`: start a Mailroom from a test suite (bun test, node --test, vitest, jest),
 * send it signed webhooks, wait for them, and test translation clients against it.
 *
 * @example
 * await using mr = await startMailroom({ config: { channels: [{ name: "github", guards: ["gh"] }], guards: [...] } });
 * const channel = mr.channel();
 * await mr.send(channel, '{"action":"opened"}', { sign: { github: "s3cret" } });
 * const hook = await mr.waitForHook({ channel, where: (h) => h.payload?.action === "opened" });
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildConfig, randomKey, type MailroomConfig } from "./config";
import { type DeliveriesQuery, type Delivery, type ForwardOptions, forwardFlags, listDeliveries } from "./deliveries";
import { managementClient, type ManagementClient } from "./management";
import { instanceDir, mailroomCommand, startServer } from "./process";
import { type FixtureTrigger, sendHook, triggerFixture, triggerHook, type SendOptions, type TriggerOptions } from "./send";
import { translateHelper, type TranslateHelper } from "./translate";
import { waitForHook, type WaitForHook } from "./wait";
import { type ExpectHooks, type ExpectNoHook, expectHooks, expectNoHook, type HooksQuery, listHooks } from "./proofs";
import type { HookExtended } from "./types";

export type StartOptions = ForwardOptions & {
  /** The config as TOML text or as an object of the same shape (default: none, every default). */
  config?: string | MailroomConfig;
  /** The SQLite file (default: a fresh one in a temp folder removed at stop; ":memory:" keeps nothing). */
  dataPath?: string;
  /** How to run Mailroom (default: the executable of this package; or $MAILROOM_BIN). */
  command?: string[];
  /** Milliseconds to wait for the server to be ready (default 15000). */
  startTimeout?: number;
};

export type Mailroom = {
  /** Base URL, e.g. http://127.0.0.1:41234 (the catching endpoint is `${url}/?channel=NAME`). */
  url: string;
  /** The server's process id. */
  pid: number;
  /** The instance's temp folder (config, data file), removed at stop. */
  dir: string;
  /** A bearer token of the management API. */
  token: string;
  /** A fresh channel name, unique in this process ("test-1-<random>"). */
  channel(prefix?: string): string;
  /** Sends a (signed) request to the catching endpoint; see SendOptions. */
  send(channel: string, body?: string | Uint8Array | object, opts?: SendOptions): Promise<Response>;
  /**
   * Sends a realistic sample event of a provider (`mailroom trigger --list`): fresh ids and times,
   * `overrides` applied, signed with `sign` (the guard's key) when given; to the channel named
   * after the provider unless `channel` says otherwise.
   *
   * @example await mr.trigger("github", "push", { overrides: { ref: "refs/heads/dev" }, sign: "s3cret" })
   */
  trigger(provider: string, event: string, opts?: TriggerOptions): Promise<Response>;
  /**
   * Sends a fixture file (`mailroom fixtures save`, the dashboard's "Save as fixture") with fresh
   * ids and times, `overrides` applied, signed as its provider when `sign` gives the key.
   *
   * @example await mr.trigger({ fixture: "fixtures/stripe-invoice-paid.json", overrides: { "data.object.amount_paid": 5000 }, sign: "whsec_..." })
   */
  trigger(fixture: FixtureTrigger): Promise<Response>;
  /** The first hook that matches, stored or arriving later; rejects after `timeout` listing what arrived and was refused. */
  waitForHook(opts: WaitForHook): Promise<HookExtended>;
  /**
   * Proves that hooks arrived: resolves with the matching hooks (oldest first) once `count` of them
   * (exactly n, or `{ atLeast: n }`; default at least 1) are stored, waiting up to `within` (default
   * 5s); rejects with HookExpectationError listing what did arrive. `where` is a search (`type:push
   * payload.ref:refs/heads/main`) or a function of the hook.
   *
   * @example await mr.expectHooks({ channel, where: "type:invoice.paid", count: 2, within: "3s" })
   */
  expectHooks(opts: ExpectHooks): Promise<HookExtended[]>;
  /**
   * Proves that no matching hook is stored or arrives during `during` (default 1s); rejects at the
   * first one, listing it.
   *
   * @example await mr.expectNoHook({ channel, where: (h) => h.event_type === "refund.created", during: 500 })
   */
  expectNoHook(opts: ExpectNoHook): Promise<void>;
  /** The stored hooks of `channel` (and `where`) in catch order, oldest first (at most 1000). */
  hooks(q?: HooksQuery): Promise<HookExtended[]>;
  /**
   * What the handlers sent to the app (`forwardTo`'s and the config's): per hook, oldest first, every
   * attempt made with the app's status (and the chaos action, when the server records it).
   *
   * @example const [d] = await mr.deliveries({ channel }); d.attempts.map((a) => a.http_status) // [503, 200]
   */
  deliveries(q?: DeliveriesQuery): Promise<Delivery[]>;
  /** The management API under /v1. */
  api: ManagementClient;
  /** fetch() relative to `url`, with the management token unless you give an Authorization header. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** The translation service: accounts per test, clients of revisions A and B, translator, admin, the simulator. */
  translate: TranslateHelper;
  /** What the server printed (the last 64 KiB), for when a test wants to know why. */
  output(): string;
  /** Stops the server and removes its files; safe to call twice. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

let channels = 0;

/**
 * Starts a Mailroom on a free port (port 0, the address read from the server itself) with a
 * fresh data file, and resolves once it answers. Throws when the config is invalid, with every
 * problem the server listed.
 */
export async function startMailroom(options: StartOptions = {}): Promise<Mailroom> {
  const command = mailroomCommand(options.command);
  const flags = forwardFlags(options);
  const dir = instanceDir();
  const creds = { token: randomKey("mr_test_"), translateAdminKey: randomKey("tk_admin_"), translatorKey: randomKey("tk_translator_") };
  const configPath = join(dir, "mailroom.toml");
  try {
    writeFileSync(configPath, buildConfig(options.config, options.dataPath ?? join(dir, "mailroom.db"), creds), { mode: 0o600 });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const server = await startServer(command, configPath, dir, options.startTimeout ?? 15_000, flags);
  const { url } = server;
  const api = managementClient(url, creds.token);
  const stop = () => server.stop();
  return {
    url,
    pid: server.pid,
    dir,
    token: creds.token,
    channel: (prefix = "test") => `${prefix}-${++channels}-${Math.random().toString(36).slice(2, 8)}`,
    send: (channel, body, opts) => sendHook(url, channel, body, opts),
    trigger: ((what: string | FixtureTrigger, event?: string, opts?: TriggerOptions) =>
      typeof what === "string" ? triggerHook(url, what, event ?? "", opts) : triggerFixture(url, what)) as Mailroom["trigger"],
    waitForHook: (opts) => waitForHook(url, creds.token, api, opts),
    expectHooks: (opts) => expectHooks(url, creds.token, api, opts),
    expectNoHook: (opts) => expectNoHook(url, creds.token, api, opts),
    hooks: (q = {}) => listHooks(api, q),
    deliveries: (q) => listDeliveries(api, q),
    api,
    fetch(path, init = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has("authorization")) headers.set("authorization", `Bearer ${creds.token}`);
      return fetch(url + path, { ...init, headers });
    },
    translate: translateHelper(url, creds.translateAdminKey, creds.translatorKey),
    output: () => server.output(),
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

export { MailroomApiError, TranslateApiError } from "./http";
export { WaitForHookTimeout, type WaitForHook } from "./wait";
export { HookExpectationError, type Duration, type ExpectHooks, type ExpectNoHook, type HooksQuery, type HookWhere } from "./proofs";
export { matchers, type MailroomMatchers } from "./matchers";
export type { FixtureTrigger, SendOptions, TriggerOptions } from "./send";
export type { DeliveriesQuery, Delivery, DeliveryAttempt, ForwardOptions } from "./deliveries";
export type { MailroomConfig } from "./config";
export type { ManagementClient, ListHooks } from "./management";
export type { TestAccount, TranslateHelper } from "./translate";
export type * from "./types";
