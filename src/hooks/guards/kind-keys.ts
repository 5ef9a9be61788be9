import { Type as t } from "@sinclair/typebox";
import { Duration, Name } from "../../config/schema";

/** Keys every [[guards]] kind shares. */
export const strict = { additionalProperties: false } as const;
export const common = <K extends string>(kind: K) => ({
  name: Name("guard name, as listed in a channel's guards"),
  kind: t.Literal(kind, { description: "guard kind" }),
});
export const secret = (description: string) => ({
  secret: t.Optional(t.String({ minLength: 1, description })),
  secret_env: t.Optional(t.String({ description: "environment variable holding the secret" })),
});
export const tolerance = (def: string) => Duration(def, 'how far the signed timestamp may be from now, either way; "0s" turns the check off');

export const HEADER_NAME = "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$";
export const HeaderName = (description: string) => t.String({ pattern: HEADER_NAME, description });
