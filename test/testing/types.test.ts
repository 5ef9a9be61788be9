import type { Static } from "@sinclair/typebox";
import { expect, test } from "bun:test";
import type * as hooks from "../../src/hooks/model";
import type { Refusal } from "../../src/hooks/routes/refusals";
import type { Attempt } from "../../src/runner/routes";
import type * as tm from "../../src/openapi/translate-models";
import type { CalculateA, TranslateA, TranslateB } from "../../src/translate/model";
import type * as helper from "../../src/testing/types";

/**
 * The helper's published types are written out by hand (so its declarations need nothing else);
 * `npm run typecheck` fails here when one of them differs from the server's TypeBox model.
 */
type Deep<T> = T extends readonly (infer E)[]
  ? Deep<E>[]
  : T extends object
    ? { [K in keyof T]-?: [Deep<T[K]>, undefined extends T[K] ? "optional" : "required"] }
    : T;
/** Each assignable to the other, with the same keys and the same optional keys at every depth. */
type Same<A, B> = [Deep<A>] extends [Deep<B>] ? ([Deep<B>] extends [Deep<A>] ? true : false) : false;
const same = <A, B>(ok: Same<A, B>) => ok;

test("the helper's types are the TypeBox models' Static types", () => {
  const checks = [
    same<helper.Channel, Static<typeof hooks.Channel>>(true),
    same<helper.Hook, Static<typeof hooks.Hook>>(true),
    same<helper.HookExtended, Static<typeof hooks.HookExtended>>(true),
    // @ts-expect-error a field the model does not have is caught
    same<helper.Hook & { extra: 1 }, Static<typeof hooks.Hook>>(true),
    same<helper.HookEvent, Static<typeof hooks.Event>>(true),
    same<helper.ErrorBody, Static<typeof hooks.ErrorBody>>(true),
    same<helper.Refusal, Static<typeof Refusal>>(true),
    same<helper.Attempt, Static<typeof Attempt>>(true),
    same<helper.Account, Static<typeof tm.Account>>(true),
    same<helper.CreatedAccount, Static<typeof tm.CreatedAccount>>(true),
    same<helper.OrderSummary, Static<typeof tm.OrderSummary>>(true),
    same<helper.OrderA, Static<typeof tm.OrderA>>(true),
    same<helper.OrderB, Static<typeof tm.OrderB>>(true),
    same<helper.PlacedOrdersA, Static<typeof tm.PlacedOrders>>(true),
    same<helper.PlacedOrdersB, Static<typeof tm.PlacedOrdersB>>(true),
    same<helper.Rate, Static<typeof tm.Rate>>(true),
    same<helper.Price, Static<typeof tm.Price>>(true),
    same<helper.Ledger, Static<typeof tm.Ledger>>(true),
    same<helper.TranslateErrorBody, Static<typeof tm.TranslateError>>(true),
    // TranslateA's resource is typed ResourceA | ResourceB on the server (one factory makes both revisions).
    same<Omit<helper.TranslateRequestA, "resource">, Omit<Static<typeof TranslateA>, "resource">>(true),
    same<helper.ResourceA, Static<typeof tm.ResourceA>>(true),
    same<helper.TranslateRequestB, Static<typeof TranslateB>>(true),
    same<helper.CalculateRequest, Static<typeof CalculateA>>(true),
  ];
  expect(checks.every(Boolean)).toBe(true);
});
