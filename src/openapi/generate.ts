import { ROUTE_INPUT, type RouteInput } from "../lib/route-input";
import { createNamer, toJsonSchema, type JsonSchema } from "./schema";

/** One route as Elysia's `app.routes` lists it: the schemas in `hooks` are those it validates with. */
export type RouteInfo = { method: string; path: string; hooks?: Record<string, any> };

/** What a route's schemas do not say: its name, words, and what it answers besides them. */
export type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  /** The method documented for a route of every method (`.all`). */
  method?: string;
  /** Success status and body, when the route declares no response schema or answers another status. */
  success?: {
    status: number;
    description: string;
    schema?: unknown;
    headers?: Record<string, JsonSchema>;
    contentType?: string;
    /** Other media types the success may have, with their schemas (an export's formats). */
    alsoAs?: Record<string, unknown>;
  };
  /** Error statuses besides the document's own and those of the route's response schemas. */
  errors?: number[];
  /** Statuses of the document's own that this operation never answers. */
  notErrors?: number[];
  /** Path parameters the route checks itself (it has no params schema). */
  params?: Record<string, unknown>;
  /** Query parameters the route reads itself (it has no query schema). */
  query?: Record<string, unknown>;
  /** A body the route reads itself, as OpenAPI's requestBody. */
  body?: JsonSchema;
  /** "none": no credentials; "optional": credentials are not needed but are checked when sent. */
  security?: "none" | "optional";
};

export type ErrorStatus = { description: string; schema?: JsonSchema; headers?: Record<string, string> };

export type DocumentDef = {
  /** The file name without .json: /openapi/<name>.json. */
  name: string;
  title: string;
  version: string;
  description: string;
  /** Whether a route path belongs to this document. */
  owns: (path: string) => boolean;
  securitySchemes: Record<string, JsonSchema>;
  security: Record<string, string[]>[];
  /** Models named in components.schemas; any schema equal to one is a $ref to it. */
  models: Record<string, unknown>;
  /** Every error status this document's operations can answer, with its body. */
  errorStatuses: Record<number, ErrorStatus>;
  /** Statuses every operation can answer; `withBody` also for operations with a request body. */
  errors: { all: number[]; withInput: number[]; withBody: number[] };
  /** By "METHOD /path" exactly as app.routes has it. */
  operations: Record<string, Operation>;
};

const JSON_TYPE = "application/json";

/** Routes that are no operation: the 404/405 fallbacks, and these documents themselves. */
export const isHidden = (route: RouteInfo) => route.hooks?.detail?.hide === true;

const isNoBody = (s: JsonSchema) => s.type === "object" && s.additionalProperties === false && Object.keys((s.properties as object) ?? {}).length === 0;

/**
 * An OpenAPI 3.1 document of the routes `def` owns. A route without an entry in `def.operations`
 * is still documented, under a made-up operation id with `x-undocumented: true`; the tests
 * refuse that.
 */
export function buildDocument(def: DocumentDef, routes: readonly RouteInfo[]): JsonSchema {
  const namer = createNamer(def.models);
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const usedErrors = new Set<number>();

  for (const route of routes) {
    if (isHidden(route) || !def.owns(route.path)) continue;
    const key = `${route.method} ${route.path}`;
    const op: Operation = def.operations[key] ?? { operationId: key.replace(/[^A-Za-z0-9]+/g, "_"), summary: "(undocumented)" };
    // A route that checks its input itself declares the models in its detail (lib/route-input.ts).
    const declared = (route.hooks?.detail?.[ROUTE_INPUT] ?? {}) as RouteInput;
    const hooks: Record<string, any> = { ...route.hooks, query: route.hooks?.query ?? declared.query, body: route.hooks?.body ?? declared.body };
    const method = (op.method ?? route.method).toLowerCase();
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

    const parameters: JsonSchema[] = [];
    const pathSchemas = { ...(op.params ?? {}), ...(hooks.params?.properties ?? {}) } as Record<string, unknown>;
    for (const [, name] of route.path.matchAll(/:([A-Za-z0-9_]+)/g)) {
      const { description, ...schema } = pathSchemas[name!] ? namer.schema(pathSchemas[name!]) : { type: "string" };
      parameters.push({ name, in: "path", required: true, ...(description ? { description } : {}), schema });
    }
    const query = (hooks.query ?? { properties: op.query ?? {}, required: [] }) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, s] of Object.entries(query.properties ?? {})) {
      const schema = namer.schema(s);
      const { description, ...rest } = schema;
      parameters.push({ name, in: "query", required: (query.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest });
    }

    let requestBody: JsonSchema | undefined = op.body;
    if (!requestBody && hooks.body) {
      const body = toJsonSchema(hooks.body);
      if (!isNoBody(body)) {
        const branches = (body.anyOf as JsonSchema[] | undefined) ?? [body];
        const nonNull = branches.filter((b) => b.type !== "null");
        const optional = nonNull.length < branches.length;
        const schema = nonNull.length === 1 ? namer.schema(nonNull[0]) : namer.schema({ anyOf: nonNull });
        requestBody = { required: !optional, content: { [JSON_TYPE]: { schema } } };
      }
    }

    const responses: Record<string, JsonSchema> = {};
    const responseSchemas = (hooks.response ?? {}) as Record<string, unknown>;
    const status = op.success?.status ?? 200;
    const successSchema = op.success?.schema ?? responseSchemas[String(status)];
    responses[String(status)] = {
      description: op.success?.description ?? "OK",
      ...(op.success?.headers ? { headers: op.success.headers } : {}),
      ...(successSchema !== undefined && status !== 204
        ? {
            content: {
              [op.success?.contentType ?? JSON_TYPE]: { schema: namer.schema(successSchema) },
              ...Object.fromEntries(Object.entries(op.success?.alsoAs ?? {}).map(([type, schema]) => [type, { schema: namer.schema(schema) }])),
            },
          }
        : {}),
    };
    const takesInput = hooks.query !== undefined || hooks.params !== undefined || op.query !== undefined;
    const errors = new Set<number>([
      ...def.errors.all,
      ...(takesInput ? def.errors.withInput : []),
      ...(requestBody || hooks.body ? def.errors.withBody : []),
      ...Object.keys(responseSchemas)
        .map(Number)
        .filter((s) => s >= 400),
      ...(op.errors ?? []),
    ]);
    for (const e of op.notErrors ?? []) errors.delete(e);
    for (const e of [...errors].sort((a, b) => a - b)) {
      usedErrors.add(e);
      responses[String(e)] = { $ref: `#/components/responses/${errorName(e)}` };
    }

    const operation: JsonSchema = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [tagOf(route.path)],
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(op.security === "none" ? { security: [] } : op.security === "optional" ? { security: [{}, ...def.security] } : {}),
      ...(def.operations[key] ? {} : { "x-undocumented": true }),
    };
    (paths[path] ??= {})[method] = operation;
  }

  const responses: Record<string, JsonSchema> = {};
  for (const e of [...usedErrors].sort((a, b) => a - b)) {
    const status = def.errorStatuses[e] ?? { description: `HTTP ${e}` };
    responses[errorName(e)] = {
      description: status.description,
      ...(status.headers
        ? { headers: Object.fromEntries(Object.entries(status.headers).map(([h, d]) => [h, { description: d, schema: { type: "string" } }])) }
        : {}),
      content: { [JSON_TYPE]: { schema: status.schema ?? { $ref: "#/components/schemas/Error" } } },
    };
  }

  return {
    openapi: "3.1.0",
    info: { title: def.title, version: def.version, description: def.description },
    paths,
    components: { schemas: namer.components, responses, securitySchemes: def.securitySchemes },
    security: def.security,
  };
}

const errorName = (status: number) => `Error${status}`;

/** The first path segment after the API's base path names the group: channels, hooks, orders... */
function tagOf(path: string): string {
  const parts = path.split("/").filter((p) => p && !/^(v1|api|translator|admin)$/.test(p));
  return parts[0] ?? "catching";
}
