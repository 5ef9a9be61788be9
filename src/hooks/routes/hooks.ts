import { Elysia, t, type Static } from "elysia";
import { NAME_PATTERN, NAME_RULE } from "../../config/schema";
import { parseRfc3339 } from "../../lib/clock";
import { invalid } from "../../lib/errors";
import { HOOK_ID_PATTERN } from "../../lib/ids";
import { queryInt, queryIntegerSchema } from "../../lib/query-int";
import { jsonArrayResponse } from "../../lib/json-stream";
import {
  Empty,
  ErrorBody,
  HookListOut,
  HookOrExtendedOut,
  HookOut,
  hookStatusSchema,
  NoBody,
  NoQuery,
  plainHook,
  type HookExtendedWire,
  type HookWire,
} from "../model";
import { HOOK_STATUSES } from "../status";
import { MAX_QUERY_LENGTH, type HookSearch } from "../hook-search";
import type { ManagementDeps } from "./deps";

const strict = { additionalProperties: false } as const;
const hookId = t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a lowercase ULID (26 characters)" });
const params = t.Object({ id: hookId }, strict);
const LIMIT_ERROR = "limit: must be an integer from 1 to 100";
const LIMIT = { min: 1, max: 100, fallback: 50 };
const afterId = t.String({ pattern: HOOK_ID_PATTERN, error: "after: must be a hook id (a lowercase ULID)" });
/** `include=extensions`: Mailroom's extension fields (HOOK_EXTENSIONS) on each Hook besides the spec's. */
const include = t.Optional(
  t.Literal("extensions", {
    error: "include: must be extensions",
    description: "`extensions`: each hook also carries Mailroom's extension fields (`event_type`, `source_id`): HookExtended instead of Hook",
  }),
);
const getQuery = t.Object({ include }, strict);
export const listQuery = t.Object(
  {
    channel: t.Optional(t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `channel: channel names are ${NAME_RULE}, at most 64 characters` })),
    status: t.Optional(hookStatusSchema({ error: `status: must be one of ${HOOK_STATUSES.join(", ")}` })),
    limit: t.Optional(queryIntegerSchema(LIMIT, LIMIT_ERROR)),
    after: t.Optional(afterId),
    q: t.Optional(
      t.String({
        maxLength: MAX_QUERY_LENGTH,
        error: `q: must be a search of at most ${MAX_QUERY_LENGTH} characters`,
        description:
          "A search (extension) in the query language of docs/search.md: free words, field terms such as `payload.data.id:42`, `header.x-github-event:push`, `event:invoice.*`, `method:POST`, `ip:10.0.0.0/8`, `-term`/`NOT`, `OR`, parentheses, `status:`, `has:attempts`, `has:refusal`, `larger:`/`smaller:`, `after:`/`before:` (dates, `-1h`)",
      }),
    ),
    since: t.Optional(
      t.String({ maxLength: 40, error: "since: must be an RFC 3339 time", description: "Hooks caught at or after this RFC 3339 time (extension)" }),
    ),
    until: t.Optional(t.String({ maxLength: 40, error: "until: must be an RFC 3339 time", description: "Hooks caught before this RFC 3339 time (extension)" })),
    event_type: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 129,
        error: "event_type: must be an event type of 1 to 128 characters, or a prefix followed by *",
        description:
          "Extension: only hooks of this event type (`push`, `invoice.paid`); a trailing `*` matches every type starting with what precedes it (`invoice.*`)",
      }),
    ),
    fields: t.Optional(
      t.Literal("summary", {
        error: "fields: must be summary",
        description: "Hooks without body, payload, headers and events, with `size` (bytes of the body): what a list needs, read without the bodies",
      }),
    ),
    schema: t.Optional(
      t.Union([t.Literal("valid"), t.Literal("invalid"), t.Literal("unknown"), t.Literal("none")], {
        error: "schema: must be one of valid, invalid, unknown, none",
        description:
          "Extension: only hooks whose contract check gave this result (docs/contracts.md); `q` also takes `schema:invalid`, `is:new-type`, `is:new-field`",
      }),
    ),
    include,
  },
  strict,
);
const failBody = t.Object({ message: t.String({ maxLength: 4096, error: "message: must be a string of at most 4096 characters" }) }, strict);
// What each route can answer besides 200 (the OpenAPI documents list these): a list never 404s,
// and only a transition can conflict with the hook's status.
const listErrors = { 400: ErrorBody, 401: ErrorBody };
const hookErrors = { ...listErrors, 404: ErrorBody };
const errors = { ...hookErrors, 409: ErrorBody };

/** HookService_*: list (newest first, `after` paging), get, delete, discard, retry, and the consumer operations. */
/** A time parameter in ms; throws invalid_argument unless it is an RFC 3339 time. */
function timeParam(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = parseRfc3339(value);
  if (ms === undefined) throw invalid(`invalid query: ${name}: must be an RFC 3339 time such as 2026-11-26T10:00:00Z`);
  return ms;
}

export async function listPage(
  deps: Pick<ManagementDeps, "hooks" | "search">,
  query: Omit<Static<typeof listQuery>, "fields" | "include" | "after" | "limit"> & { after?: string; limit?: string },
  reader?: string,
): Promise<string[]> {
  const limit = queryInt(query.limit, LIMIT, () => invalid(`invalid query: ${LIMIT_ERROR}`));
  // The contract terms of `q` (search/query.ts splitContract) are read from its tree, not its text.
  const found = query.q === undefined ? undefined : deps.search.read(query.q, reader, { contracts: true });
  const page = (after: string | undefined, n: number) => basePage(deps, query, found, after, n);
  const schema = query.schema;
  const contract = found?.contract;
  if (!schema && !contract) return page(query.after, limit);
  // Contract filters (kept beside the hooks, docs/contracts.md) thin the pages of the list or search
  // without them, read until the page is full, the hooks end, or CONTRACT_SCAN_MAX were looked at.
  const out: string[] = [];
  let after = query.after;
  for (let scanned = 0; out.length < limit && scanned < CONTRACT_SCAN_MAX; ) {
    const ids = await page(after, LIMIT.max);
    // A `none` is implied for hooks no schema applies to (contracts/wire.ts): read them only when asked for.
    const checks = await deps.hooks.contractsOf(ids, { implied: schema === "none" || contract?.asksNone === true });
    for (const id of ids) {
      const c = checks.get(id);
      if (c && (!schema || c.result === schema) && (!contract || contract.holds(c))) out.push(id);
      if (out.length === limit) break;
    }
    scanned += ids.length;
    if (ids.length < LIMIT.max) break;
    after = ids.at(-1);
  }
  return out;
}

/** Hooks a page filtered by contract results looks at, at most (a page may then hold fewer than `limit`). */
export const CONTRACT_SCAN_MAX = 10_000;

/** A page of the plain list, or of the search (`found`, the time bounds) when there is one. */
function basePage(
  deps: Pick<ManagementDeps, "hooks" | "search">,
  query: Omit<Static<typeof listQuery>, "fields" | "include" | "after" | "limit">,
  found: ReturnType<HookSearch["read"]> | undefined,
  after: string | undefined,
  limit: number,
): Promise<string[]> {
  const { channel, status } = query;
  const eventType = query.event_type;
  const since = timeParam("since", query.since);
  const until = timeParam("until", query.until);
  // A query of contract terms only searches nothing: the plain list, its pages filtered.
  if ((found === undefined || found.matchesAll) && since === undefined && until === undefined)
    return deps.hooks.listIds({ channel, status, eventType, after, limit });
  // event_type means what it means without a search: exact, or a prefix with "*" (not `type:`, which ignores case).
  return (found ?? deps.search.read(""))({ channel, status, eventType, after, limit, since, until });
}

/** The hook as asked: the spec's Hook, or with `include=extensions` every extension field too. */
const shown =
  (extended: boolean) =>
  (h: HookExtendedWire): HookWire | HookExtendedWire =>
    extended ? h : plainHook(h);

export function hookRoutes({ auth, hooks, search }: ManagementDeps) {
  return (
    new Elysia()
      .use(auth)
      // Answered as it is read, one hook after another: a page of large hooks is never whole in
      // memory, and catching goes on between them. A hook deleted meanwhile is left out.
      .get(
        "/hooks",
        async ({ query, actor }) => {
          const ids = await listPage({ hooks, search }, query, actor);
          if (query.fields === "summary")
            return jsonArrayResponse(
              ids.length,
              (i) => hooks.findSummary(ids[i]!, { contract: query.include === "extensions" }),
              (json) => json,
            );
          const extended = query.include === "extensions";
          const as = shown(extended);
          return jsonArrayResponse(ids.length, async (i) => {
            // The contract result is an extension: read only when asked for (bench:reads, docs/benchmarks.md).
            const hook = await hooks.find(ids[i]!, { contract: extended });
            return hook && as(hook);
          });
        },
        {
          query: listQuery,
          response: { 200: HookListOut, ...listErrors },
        },
      )
      .get(
        "/hooks/:id",
        async ({ params, query }) => shown(query.include === "extensions")(await hooks.get(params.id, { contract: query.include === "extensions" })),
        {
          params,
          query: getQuery,
          response: { 200: HookOrExtendedOut, ...hookErrors },
        },
      )
      .delete(
        "/hooks/:id",
        async ({ params }) => {
          await hooks.delete(params.id);
          return {};
        },
        { params, query: NoQuery, body: NoBody, response: { 200: Empty, ...hookErrors } },
      )
      .post("/hooks/:id/discard", async ({ params, actor }) => plainHook(await hooks.discard(params.id, actor)), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      .post("/hooks/:id/retry", async ({ params, actor }) => plainHook(await hooks.retry(params.id, actor)), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      // An extension beside RetryHook: delivers again whatever the status (docs/management-api.md).
      .post("/hooks/:id/redeliver", async ({ params, actor }) => plainHook(await hooks.redeliver(params.id, actor)), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      .post("/hooks/:id/process", async ({ params, actor }) => plainHook(await hooks.process(params.id, actor)), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      .post("/hooks/:id/fail", async ({ params, actor, body }) => plainHook(await hooks.fail(params.id, actor, body.message)), {
        params,
        query: NoQuery,
        body: failBody,
        response: { 200: HookOut, ...errors },
      })
  );
}
