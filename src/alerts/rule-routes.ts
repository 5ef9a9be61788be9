import { Elysia, t } from "elysia";
import { ErrorBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import { AlertRule, AlertRuleIn } from "./rule-model";
import type { AlertRules } from "./rule-service";

const strict = { additionalProperties: false } as const;
const params = t.Object({ name: t.String({ maxLength: 64, error: "name: must be an alert rule's name" }) }, strict);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * GET/POST /alerts, GET/PATCH/DELETE /alerts/{name}: the alert rules, the config file's (read-only:
 * 409 on a change) and those made here, checked as check-config checks the file. For admins
 * (`admin`, else `auth`: an API key with full access), as the notifiers are.
 */
export function alertRuleRoutes({ auth, admin, rules }: Pick<ManagementDeps, "auth" | "admin"> & { rules: AlertRules }) {
  return new Elysia()
    .use(admin ?? auth)
    .get("/alerts", () => rules.list(), { query: NoQuery, response: { 200: t.Array(AlertRule), 401: ErrorBody, 403: ErrorBody } })
    .get("/alerts/:name", ({ params }) => rules.get(params.name), { params, query: NoQuery, response: { 200: AlertRule, ...errors } })
    .post(
      "/alerts",
      async ({ body, actor, set }) => {
        const made = await rules.create(body, actor);
        set.status = 201;
        return made;
      },
      { query: NoQuery, body: AlertRuleIn, response: { 201: AlertRule, ...errors } },
    )
    .patch("/alerts/:name", ({ params, body, actor }) => rules.update(params.name, body as Record<string, unknown>, actor), {
      params,
      query: NoQuery,
      body: AlertRuleIn,
      response: { 200: AlertRule, ...errors },
    })
    .delete(
      "/alerts/:name",
      async ({ params, actor, set }) => {
        await rules.remove(params.name, actor);
        set.status = 204;
      },
      { params, query: NoQuery, response: { 204: t.Void(), ...errors } },
    );
}
