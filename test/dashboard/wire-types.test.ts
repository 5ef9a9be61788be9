import type { Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Me } from "../../src/dashboard/routes/session";
import type { ApiKeyInfo } from "../../src/dashboard/routes/api-keys";
import * as hooks from "../../src/hooks/model";
import type { Attempt } from "../../src/runner/routes";
import type { HandlerInfo } from "../../src/delivery/handler-routes";
import type { Refusal } from "../../src/hooks/routes/refusals";
import type { Notifier } from "../../src/notify/routes";
import type { AlertRule } from "../../src/alerts/rule-model";
import { canTransition, EVENT_KINDS, HOOK_STATUSES, TRANSITION_FROM, type HookStatus, type Transition } from "../../src/hooks/status";
import { HOOK_STATUSES as STORE_STATUSES } from "../../src/hooks/store";
import type * as ui from "../../src/ui/api";
import { createTestApp } from "../helpers/app";

/**
 * The dashboard's wire types against the server's TypeBox models: `npm run typecheck` fails here
 * when a model changes and the dashboard's type does not follow.
 */
type Deep<T> = T extends readonly (infer E)[]
  ? Deep<E>[]
  : T extends object
    ? { [K in keyof T]-?: [Deep<T[K]>, undefined extends T[K] ? "optional" : "required"] }
    : T;
/** Each assignable to the other, with the same keys and the same optional keys at every depth. */
type Same<A, B> = [Deep<A>] extends [Deep<B>] ? ([Deep<B>] extends [Deep<A>] ? true : false) : false;
/**
 * The dashboard can read every answer of the model: each property it names is in the model, and
 * what the model sends is assignable to what it expects (it may read a literal union as a string).
 */
type Reads<View, Model> = [Exclude<keyof View, keyof Model>] extends [never] ? ([Model] extends [View] ? true : false) : false;
const same = <A, B>(ok: Same<A, B>) => ok;
const reads = <View, Model>(ok: Reads<View, Model>) => ok;

test("the dashboard's wire types are the TypeBox models' Static types", () => {
  const checks = [
    same<ui.Hook, Static<typeof hooks.Hook>>(true),
    same<ui.HookExtended, Static<typeof hooks.HookExtended>>(true),
    same<ui.Channel, Static<typeof hooks.Channel>>(true),
    same<ui.HookEvent, Static<typeof hooks.Event>>(true),
    same<ui.Status, Static<typeof hooks.HookStatus>>(true),
    same<ui.Refusal, Static<typeof Refusal>>(true),
    reads<ui.Attempt, Static<typeof Attempt>>(true),
    reads<ui.Me, Static<typeof Me>>(true),
    reads<ui.HandlerInfo, Static<typeof HandlerInfo>>(true),
    same<ui.ApiKey, Static<typeof ApiKeyInfo>>(true),
    same<ui.NotifierInfo, Static<typeof Notifier>>(true),
    same<ui.AlertRuleInfo, Static<typeof AlertRule>>(true),
    // @ts-expect-error a property the model lacks is caught
    reads<ui.Attempt & { retries: number }, Static<typeof Attempt>>(true),
    // @ts-expect-error so is a property the model sends as another type
    reads<Omit<ui.Attempt, "attempt"> & { attempt: string }, Static<typeof Attempt>>(true),
  ];
  expect(checks.every(Boolean)).toBe(true);
});

test("the dashboard declares no API key shape of its own: it takes the server's type", () => {
  const source = readFileSync(join(import.meta.dir, "../../src/ui/api.ts"), "utf8");
  expect(source).toContain('export type { ApiKeyInfo as ApiKey } from "../hooks/api-key-info";');
  expect(source).not.toMatch(/type ApiKey\s*=/);
});

test("the statuses and event kinds the models accept are the lists of hooks/status.ts", () => {
  for (const s of HOOK_STATUSES) expect(Value.Check(hooks.HookStatus, s)).toBe(true);
  for (const k of EVENT_KINDS) expect(Value.Check(hooks.Event.properties.kind, k)).toBe(true);
  expect(Value.Check(hooks.HookStatus, "queued")).toBe(false);
  expect(Value.Check(hooks.Event.properties.kind, "caught")).toBe(false);
  expect(Object.keys(hooks.ChannelStats.properties)).toEqual([...HOOK_STATUSES]);
  expect(STORE_STATUSES).toEqual(HOOK_STATUSES);
});

test("the dashboard offers an action on a hook exactly where the API allows it", async () => {
  const app = createTestApp();
  // One hook in each status, in a channel without handlers (so ProcessHook and FailHook apply).
  const into: Record<HookStatus, string | undefined> = { pending: undefined, handled: "process", failed: "fail", discarded: "discard" };
  for (const [action, from] of Object.entries(TRANSITION_FROM) as [Transition, readonly string[]][]) {
    for (const status of HOOK_STATUSES) {
      const [id] = await app.catchHooks("actions", 1);
      const move = into[status];
      if (move) expect((await app.call("POST", `/v1/hooks/${id}/${move}`, move === "fail" ? { message: "x" } : undefined)).status).toBe(200);
      const res = await app.call("POST", `/v1/hooks/${id}/${action}`, action === "fail" ? { message: "x" } : undefined);
      expect([action, status, res.status]).toEqual([action, status, canTransition(action, status) ? 200 : 409]);
      expect(canTransition(action, status)).toBe(from.includes(status));
    }
  }
  app.close();
});
