import { Elysia } from "elysia";
import type { Revision } from "../model";
import { CalculateA, OrdersQueryA, OrdersQueryB, TranslateA, TranslateB } from "../model";
import { accountOut, orderOut, summaryOut, translateOut } from "../wire";
import { checker, pageOf, queryChecker } from "../check";
import { declares } from "../../lib/route-input";
import type { RouteDeps } from "./deps";
import { fallbacks, jsonInstance, noContent, orderId } from "./common";

/**
 * The customer API of one revision: A under /v1, B under /api/v1. The same service serves
 * both; the models and wire mappers carry the differences (sort, metadata, resource in
 * responses, text/plain, calculate).
 */
export function customerRoutes(revision: Revision, deps: RouteDeps) {
  const { gate, orders, accounts, rates } = deps;
  const prefix = revision === "A" ? "/v1" : "/api/v1";
  const ordersQuery = queryChecker(revision === "A" ? OrdersQueryA : OrdersQueryB);
  const translateBody = checker(revision === "A" ? TranslateA : TranslateB, "body");
  const calculateBody = checker(CalculateA, "body");
  const account = (request: Request) => {
    const p = gate.principal(request);
    if (p.role !== "customer") throw new Error("translate: gate let a non-customer through");
    return p.accountId;
  };

  const api = jsonInstance(prefix, gate, ["/translate", "/calculate"])
    .get("/account", async ({ request }) => accountOut(await accounts.find(account(request))))
    .get(
      "/orders",
      async ({ request }) => {
        const query = ordersQuery(request);
        const rows = await orders.list(account(request), { sort: (query as { sort?: "asc" | "desc" }).sort ?? "desc", ...pageOf(query) });
        return rows.map(summaryOut);
      },
      declares(ordersQuery),
    )
    .get("/orders/:id", async ({ request, params }) => {
      const { order, comments } = await orders.get(account(request), orderId(params.id));
      return orderOut(order, comments, revision);
    })
    .delete("/orders/:id", async ({ request, params }) => {
      await orders.remove(account(request), orderId(params.id));
      return noContent();
    })
    .post(
      "/translate",
      async ({ request, body }) => translateOut(await orders.place(account(request), revision, translateBody(body)), revision),
      declares(translateBody),
    )
    .get("/rates", () => rates.list());

  const known: Record<string, string[]> = {
    "/account": ["GET"],
    "/orders": ["GET"],
    "/orders/:id": ["GET", "DELETE"],
    "/translate": ["POST"],
    "/rates": ["GET"],
  };
  if (revision === "B") return new Elysia().use(api).use(fallbacks(prefix, known));

  const calculate = jsonInstance(prefix, gate, ["/calculate"]).post(
    "/calculate",
    ({ request, body }) => {
      account(request);
      return orders.calculate("A", calculateBody(body));
    },
    declares(calculateBody),
  );
  // /v1 is shared with the webhook API: only our own roots fall back to our 404.
  const roots = ["/account/*", "/orders/*", "/translate/*", "/rates/*", "/calculate/*"];
  return new Elysia()
    .use(api)
    .use(calculate)
    .use(fallbacks(prefix, { ...known, "/calculate": ["POST"] }, roots));
}
