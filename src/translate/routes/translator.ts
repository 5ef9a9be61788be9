import { Elysia } from "elysia";
import { CommentBody, CompleteBody, TranslatorOrdersQuery } from "../model";
import { orderOut } from "../wire";
import { checker, pageOf, queryChecker } from "../check";
import { declares } from "../../lib/route-input";
import type { RouteDeps } from "./deps";
import { fallbacks, jsonInstance, orderId } from "./common";

/**
 * The translators' API under /translator/v1: list open and own orders, accept, complete and
 * comment. Orders are shown in the revision A shape (with the resource), since translators
 * need the resource type and metadata to work.
 */
export function translatorRoutes({ gate, work }: RouteDeps) {
  const prefix = "/translator/v1";
  const name = (request: Request) => {
    const p = gate.principal(request);
    if (p.role !== "translator") throw new Error("translate: gate let a non-translator through");
    return p.name;
  };
  const ordersQuery = queryChecker(TranslatorOrdersQuery);
  const completeBody = checker(CompleteBody, "body");
  const commentBody = checker(CommentBody, "body");
  const full = async (id: number) => orderOut(await work.find(id), await work.comments(id), "A");

  const api = jsonInstance(prefix, gate, ["/orders/:id/complete", "/orders/:id/comments"])
    .get(
      "/orders",
      async ({ request }) => {
        const query = ordersQuery(request);
        const rows = await work.list(name(request), { status: query.status, sort: "asc", ...pageOf(query) });
        const out = [];
        for (const o of rows) out.push(orderOut(o, await work.comments(o.id), "A"));
        return out;
      },
      declares(ordersQuery),
    )
    .get("/orders/:id", async ({ request, params }) => {
      const id = orderId(params.id);
      await work.find(id, name(request));
      return full(id);
    })
    .post("/orders/:id/accept", async ({ request, params }) => full((await work.accept(name(request), orderId(params.id))).id))
    .post(
      "/orders/:id/complete",
      async ({ request, params, body }) => full((await work.complete(name(request), orderId(params.id), completeBody(body).target_text)).id),
      declares(completeBody),
    )
    .post(
      "/orders/:id/comments",
      async ({ request, params, body }) => {
        const id = orderId(params.id);
        const who = name(request);
        const comment = commentBody(body);
        await work.comment(id, { role: "TRANSLATOR", author: who, translator: who }, comment.text, comment.attachments);
        return full(id);
      },
      declares(commentBody),
    );

  const known = {
    "/orders": ["GET"],
    "/orders/:id": ["GET"],
    "/orders/:id/accept": ["POST"],
    "/orders/:id/complete": ["POST"],
    "/orders/:id/comments": ["POST"],
  };
  return new Elysia().use(api).use(fallbacks(prefix, known));
}
