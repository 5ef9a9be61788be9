import { Elysia, t } from "elysia";
import { ErrorBody, NoBody, NoQuery } from "../../hooks/model";
import type { TranslateServices } from "../../translate";
import { accountOut, ledgerOut, orderOut, summaryOut } from "../../translate/wire";
import { toDollars } from "../../translate/money";
import { ID_PATTERN } from "../../translate/routes/common";
import type { Gate } from "../gate";

const strict = { additionalProperties: false } as const;
const Id = (what: string) => t.String({ pattern: ID_PATTERN, error: `${what}: must be a positive integer` });
const accountParams = t.Object({ id: Id("account") }, strict);
const orderParams = t.Object({ id: Id("order") }, strict);
const Dollars = (field: string, min: number) =>
  t.Number({ minimum: min, maximum: 1e9, error: `${field}: must be a number of US dollars from ${min} to 1000000000, at most two decimals` });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
/** How many orders an account's screen lists, newest first. */
export const ACCOUNT_ORDERS = 200;

/**
 * The translation service in the dashboard, calling its services directly (never with a
 * customer's, translator's or admin's API key). Roles (docs/dashboard-translation.md):
 * - every signed-in user reads accounts, their ledger and orders, and any order;
 * - every signed-in user works as a translator under their own e-mail address: sees the queue
 *   (QUEUE and REVISION orders, and those they hold or completed), accepts and completes orders;
 * - admins top up and set balances and switch maintenance (recorded as `admin:<e-mail>`).
 */
export function translateRoutes({ gate, services }: { gate: Gate; services: TranslateServices }) {
  const { accounts, orders, work } = services;
  const detail = async (id: number) => {
    const order = await work.find(id);
    return { ...orderOut(order, await work.comments(id), "A"), account_id: order.accountId, translator: order.translator ?? undefined };
  };
  const maintenance = () => ({ maintenance: services.config.maintenance });

  const read = new Elysia({ prefix: "/translate" })
    .use(gate.requireSession())
    .get("/accounts", async () => (await accounts.list()).map(accountOut), { query: NoQuery })
    .get(
      "/accounts/:id",
      async ({ params }) => {
        const audit = await accounts.audit(Number(params.id));
        return {
          account: accountOut(audit.account),
          consistent: audit.consistent,
          entries: audit.entries.map(ledgerOut).reverse(),
          orders: (await orders.list(audit.account.id, { sort: "desc", page: 0, perPage: ACCOUNT_ORDERS })).map((o) => ({
            ...summaryOut(o),
            price: toDollars(o.price),
          })),
        };
      },
      { params: accountParams, query: NoQuery },
    )
    .get("/orders/:id", ({ params }) => detail(Number(params.id)), { params: orderParams, query: NoQuery })
    .get("/maintenance", maintenance, { query: NoQuery })
    .get(
      "/queue",
      async ({ actor }) =>
        (await work.list(actor, { sort: "asc", page: 0, perPage: 200 })).map((o) => ({
          ...summaryOut(o),
          volume: o.volume,
          translator: o.translator ?? undefined,
        })),
      { query: NoQuery },
    )
    .post("/orders/:id/accept", async ({ actor, params }) => detail((await work.accept(actor, Number(params.id))).id), {
      params: orderParams,
      query: NoQuery,
      body: NoBody,
      response: errors,
    })
    .post("/orders/:id/complete", async ({ actor, params, body }) => detail((await work.complete(actor, Number(params.id), body.target_text)).id), {
      params: orderParams,
      query: NoQuery,
      body: t.Object({ target_text: t.String({ minLength: 1, maxLength: 10_000_000, error: "target_text: must be the translated text, not empty" }) }, strict),
    });

  const admin = new Elysia({ prefix: "/translate" })
    .use(gate.requireSession("admin"))
    .post("/accounts/:id/top-up", async ({ actor, params, body }) => accountOut(await accounts.topUp(Number(params.id), body.amount, actor)), {
      params: accountParams,
      query: NoQuery,
      body: t.Object(
        {
          amount: t.Number({ exclusiveMinimum: 0, maximum: 1e9, error: "amount: must be more than 0 and at most 1000000000 US dollars, at most two decimals" }),
        },
        strict,
      ),
    })
    .put("/accounts/:id/balance", async ({ actor, params, body }) => accountOut(await accounts.setBalance(Number(params.id), body.balance, actor)), {
      params: accountParams,
      query: NoQuery,
      body: t.Object({ balance: Dollars("balance", -1e9) }, strict),
    })
    .put(
      "/maintenance",
      ({ body }) => {
        services.config.maintenance = body.maintenance;
        return maintenance();
      },
      { query: NoQuery, body: t.Object({ maintenance: t.Boolean({ error: "maintenance: must be true or false" }) }, strict) },
    );

  return new Elysia().use(read).use(admin);
}
