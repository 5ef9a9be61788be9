import { Elysia, t } from "elysia";
import { PRESETS } from "../../hooks/guards/providers";
import { ErrorBody, NoQuery } from "../../hooks/model";
import { keyOf, resignProblem } from "../../delivery/resign";
import type { Gate } from "../gate";

/** The providers edit-and-send can sign as, each with the key it signs with; those that cannot be re-signed are left out. */
const KINDS = [...PRESETS.keys()].filter((kind) => resignProblem(kind) === undefined).map((kind) => ({ kind, key: keyOf(kind) }));

/** GET /ui/api/resign-kinds: the choice of provider in edit-and-send's "re-sign as" (signed in). */
export function resignKindRoutes({ gate }: { gate: Gate }) {
  return new Elysia().use(gate.requireSession()).get("/resign-kinds", () => KINDS, {
    query: NoQuery,
    response: {
      200: t.Array(t.Object({ kind: t.String(), key: t.Union([t.Literal("secret"), t.Literal("private_key")]) }, { additionalProperties: false })),
      401: ErrorBody,
    },
  });
}
