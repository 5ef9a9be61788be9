import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ValidateFunction } from "ajv";
import type { Reply } from "../helpers/target";

export type Doc = Record<string, any>;
export const NAMES = ["webhooks", "translate-a", "translate-b", "translate-translator", "translate-admin"];

/** Every document, as a client gets it: the list at /openapi/, then each file it names. */
export async function fetchDocuments(app: {
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}): Promise<Map<string, Doc>> {
  const index = await app.call("GET", "/openapi/", undefined, {});
  const docs = new Map<string, Doc>();
  for (const { name, url } of index.json.documents as { name: string; url: string }[]) {
    const res = await app.call("GET", url, undefined, {});
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    docs.set(name, res.json);
  }
  return docs;
}

/** Every operation of a document with its method and path. */
export function operations(doc: Doc): { method: string; path: string; op: Doc }[] {
  return Object.entries(doc.paths as Doc).flatMap(([path, item]) =>
    Object.entries(item as Doc).map(([method, op]) => ({ method: method.toUpperCase(), path, op: op as Doc })),
  );
}

const PREFIX = "#/components/schemas/";

/** The schema with references to components rewritten to `#/$defs/...`, so it stands alone. */
function standalone(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(standalone);
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === "$ref" && typeof v === "string" && v.startsWith(PREFIX) ? `#/$defs/${v.slice(PREFIX.length)}` : standalone(v),
    ]),
  );
}

/**
 * Ajv for JSON Schema 2020-12 (OpenAPI 3.1's dialect) in strict mode, so an unknown keyword (a
 * leaked `error:` text, a `type: "void"`) or a dangling $ref fails compilation. Each schema is
 * compiled with the document's components beside it, so its references resolve.
 */
export function createSchemaChecker(doc: Doc) {
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat("byte", /^[A-Za-z0-9+/]*={0,2}$/);
  const defs = standalone(doc.components.schemas);
  const cache = new Map<string, ValidateFunction>();
  return {
    /** The schema at this path of the document (keys, as in doc.paths[...]...), compiled. */
    compile(parts: string[]): ValidateFunction {
      const key = JSON.stringify(parts);
      let v = cache.get(key);
      if (!v) {
        const schema = parts.reduce((node: any, p) => node?.[p], doc);
        if (schema === undefined) throw new Error(`no schema at ${parts.join(" ")}`);
        cache.set(key, (v = ajv.compile({ ...(standalone(schema) as object), $defs: defs })));
      }
      return v;
    },
    errors: (v: ValidateFunction) => ajv.errorsText(v.errors),
  };
}
