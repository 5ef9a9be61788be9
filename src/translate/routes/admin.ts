import { Type as t } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { BalanceBody, CreateAccountBody, OverdraftBody, ReopenBody, TopUpBody } from "../model";
import { accountOut, ledgerOut, orderOut } from "../wire";
import { toDollars } from "../money";
import { checker } from "../check";
import { declares } from "../../lib/route-input";
import type { RouteDeps } from "./deps";
import { accountId, fallbacks, jsonInstance, orderId } from "./common";
import { faultRoutes } from "./faults";

/**
 * The administrators' API under /admin/v1: read accounts and their ledger, top up or set a
 * balance, switch overdraft, read any order and reopen a DONE order for revision; and, beyond the
 * vendor's API: reset everything to the configured accounts, set faults, create an account with its
 * own key and make the simulator finish its work now (for test suites: see docs/testing-helper.md).
 */
export function adminRoutes({ gate, work, accounts, faults, simulator, clock }: RouteDeps) {
  const prefix = "/admin/v1";
  const admin = (request: Request) => {
    const p = gate.principal(request);
    if (p.role !== "admin") throw new Error("translate: gate let a non-admin through");
    return p.name;
  };
  const topUpBody = checker(TopUpBody, "body");
  const balanceBody = checker(BalanceBody, "body");
  const overdraftBody = checker(OverdraftBody, "body");
  const reopenBody = checker(t.Union([t.Null(), ReopenBody]), "body");
  const createBody = checker(t.Union([t.Null(), CreateAccountBody]), "body");
  const full = async (id: number) => orderOut(await work.find(id), await work.comments(id), "A");

  const api = jsonInstance(prefix, gate, ["/accounts", "/accounts/:id/top-up", "/accounts/:id/balance", "/accounts/:id/overdraft", "/orders/:id/reopen"])
    .onBeforeHandle(({ request }) => void admin(request))
    .get("/accounts", async () => (await accounts.list()).map(accountOut))
    .post("/reset", async () => (await accounts.reset()).map(accountOut))
    .post(
      "/accounts",
      async ({ request, body, set }) => {
        const input = createBody(body) ?? {};
        const { account, apiKey } = await accounts.create(input.balance ?? 0, input.overdraft ?? false, admin(request));
        set.status = 201;
        return { ...accountOut(account), api_key: apiKey };
      },
      declares(createBody),
    )
    .post("/simulator/complete-now", async () => ({ completed: await simulator.completeNow(clock.now()) }))
    .get("/accounts/:id", async ({ params }) => accountOut(await accounts.find(accountId(params.id))))
    .get("/accounts/:id/ledger", async ({ params }) => {
      const audit = await accounts.audit(accountId(params.id));
      return {
        account: accountOut(audit.account),
        consistent: audit.consistent,
        ledger_balance: toDollars(audit.ledgerBalance),
        ledger_reserved: toDollars(audit.ledgerReserved),
        unpaid_orders: toDollars(audit.unpaid),
        entries: audit.entries.map(ledgerOut),
      };
    })
    .post(
      "/accounts/:id/top-up",
      async ({ request, params, body }) => accountOut(await accounts.topUp(accountId(params.id), topUpBody(body).amount, admin(request))),
      declares(topUpBody),
    )
    .put(
      "/accounts/:id/balance",
      async ({ request, params, body }) => accountOut(await accounts.setBalance(accountId(params.id), balanceBody(body).balance, admin(request))),
      declares(balanceBody),
    )
    .put(
      "/accounts/:id/overdraft",
      async ({ params, body }) => accountOut(await accounts.setOverdraft(accountId(params.id), overdraftBody(body).allowed)),
      declares(overdraftBody),
    )
    .get("/orders/:id", ({ params }) => full(orderId(params.id)))
    .post(
      "/orders/:id/reopen",
      async ({ request, params, body }) => full((await work.reopen(admin(request), orderId(params.id), reopenBody(body)?.comment)).id),
      declares(reopenBody),
    );

  const known = {
    "/reset": ["POST"],
    "/accounts": ["GET", "POST"],
    "/simulator/complete-now": ["POST"],
    "/accounts/:id": ["GET"],
    "/accounts/:id/ledger": ["GET"],
    "/accounts/:id/top-up": ["POST"],
    "/accounts/:id/balance": ["PUT"],
    "/accounts/:id/overdraft": ["PUT"],
    "/orders/:id": ["GET"],
    "/orders/:id/reopen": ["POST"],
    "/faults": ["GET", "PUT", "DELETE"],
  };
  return new Elysia()
    .use(api)
    .use(faultRoutes(prefix, gate, faults, admin))
    .use(fallbacks(prefix, known));
}
