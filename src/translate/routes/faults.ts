import { Type as t } from "@sinclair/typebox";
import { FaultRule } from "../../config/faults";
import { checker } from "../check";
import type { Faults } from "../faults";
import type { Gate } from "../gate";
import { jsonInstance } from "./common";

/** The body of PUT /admin/v1/faults, and what GET answers (with each rule's `remaining` and `fired`). */
export const FaultsBody = t.Object({ faults: t.Array(FaultRule, { maxItems: 100 }) }, { additionalProperties: false });

/**
 * Mailroom's extension of the admin API: the fault rules of revisions A and B (translate/faults.ts).
 * GET lists them with how often each fired; PUT replaces them all; DELETE removes them all.
 */
export function faultRoutes(prefix: string, gate: Gate, faults: Faults, admin: (request: Request) => string) {
  const body = checker(FaultsBody, "body");
  return jsonInstance(prefix, gate, ["/faults"])
    .onBeforeHandle(({ request }) => void admin(request))
    .get("/faults", () => faults.view())
    .put("/faults", ({ body: raw }) => faults.replace(body(raw).faults))
    .delete("/faults", () => faults.replace([]));
}
