import { Elysia } from "elysia";
import { webhookErrors } from "../hooks/errors";
import { openapiRoutes } from "../openapi";
import type { RouteInfo } from "../openapi/generate";
import type { Base } from "./base";

/** The OpenAPI documents and the /docs page, made from the whole route table (read on their first request). */
export function createOpenapiService({ log }: Base, routes: () => readonly RouteInfo[]) {
  return { routes: new Elysia().onError(webhookErrors(log)).use(openapiRoutes(routes)) };
}
