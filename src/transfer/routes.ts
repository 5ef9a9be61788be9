import { Elysia, t } from "elysia";
import { invalid, notFound } from "../lib/errors";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { IMPORT_PATH } from "../hooks/auth";
import { ErrorBody } from "../hooks/model";
import { readBody } from "../hooks/read-body";
import { HAR_CLOSE, HAR_OPEN, harEntry } from "./har";
import type { ManagementDeps } from "../hooks/routes/deps";
import type { Transfer } from "./index";
import { listPage, listQuery } from "../hooks/routes/hooks";

/** The largest import a request may carry (JSON lines). */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;
const PAGE = 100;
const CHUNK = 256 * 1024;

const { limit: _limit, after: _after, fields: _fields, ...filters } = listQuery.properties;
const exportQuery = t.Object(
  {
    ...filters,
    format: t.Optional(t.Union([t.Literal("jsonl"), t.Literal("har")], { error: "format: must be jsonl or har" })),
    id: t.Optional(t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a hook id (a lowercase ULID)" })),
  },
  { additionalProperties: false },
);
export const ImportReport = t.Object(
  {
    imported: t.Integer(),
    skipped: t.Integer({ description: "Lines whose hook id exists already" }),
    failed: t.Array(t.Object({ line: t.Integer(), message: t.String() }), { description: "Lines that could not be read (the first 100)" }),
  },
  { additionalProperties: false },
);

/**
 * GET /hooks/export: every hook of a search or list (or one `id`), newest first, streamed as JSON
 * lines or as a HAR 1.2 document; nothing is held but a page of ids and the hook being written.
 */
export function exportRoutes({ auth, hooks, search, transfer }: Pick<ManagementDeps, "auth" | "hooks" | "search"> & { transfer: Transfer }) {
  return new Elysia().use(auth).get(
    "/hooks/export",
    async ({ query, request, actor }) => {
      const format = query.format ?? "jsonl";
      let ids: string[];
      let after: string | undefined;
      let done = false;
      if (query.id !== undefined) {
        if (!(await hooks.raw(query.id))) throw notFound(`hook "${query.id}" not found`);
        (ids = [query.id]), (done = true);
      } else {
        ids = await listPage({ hooks, search }, { ...query, limit: String(PAGE) }, actor);
        done = ids.length < PAGE;
      }
      const base = new URL(request.url).origin;
      const encoder = new TextEncoder();
      let first = true;
      let text = format === "har" ? HAR_OPEN : "";
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          while (text.length < CHUNK) {
            if (ids.length === 0) {
              if (done) break;
              ids = await listPage({ hooks, search }, { ...query, limit: String(PAGE), after }, actor);
              done = ids.length < PAGE;
              continue;
            }
            const id = ids.shift()!;
            after = id;
            const hook = await transfer.read(id);
            if (!hook) continue; // deleted since its page was read
            text += format === "har" ? (first ? "" : ",") + harEntry(hook, base) : `${await transfer.line(hook)}\n`;
            first = false;
          }
          const end = ids.length === 0 && done;
          if (end && format === "har") text += HAR_CLOSE;
          if (text) controller.enqueue(encoder.encode(text));
          text = "";
          if (end) controller.close();
        },
      });
      const type = format === "har" ? "application/json" : "application/x-ndjson";
      return new Response(stream, {
        headers: { "content-type": `${type};charset=utf-8`, "content-disposition": `attachment; filename="mailroom-hooks.${format}"` },
      });
    },
    {
      query: exportQuery,
      response: {
        200: t.String({ description: "JSON lines (one ExportedHook per line) or a HAR 1.2 document" }),
        400: ErrorBody,
        401: ErrorBody,
        404: ErrorBody,
      },
    },
  );
}

/** POST /hooks/import (the management API only): JSON lines as export writes them. */
export function importRoutes({ auth, transfer }: Pick<ManagementDeps, "auth"> & { transfer: Transfer }) {
  return new Elysia().use(auth).post(
    IMPORT_PATH.slice("/v1".length),
    async ({ request }) => {
      const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      if (type !== "application/x-ndjson") throw invalid("send the hooks as JSON lines (Content-Type: application/x-ndjson), as export writes them");
      const bytes = await readBody(request, IMPORT_MAX_BYTES);
      if (bytes === "too_large") throw invalid(`an import is at most ${IMPORT_MAX_BYTES} bytes; split the file`);
      if (bytes === "aborted") throw invalid("the request body could not be read");
      return transfer.importLines(bytes);
    },
    { response: { 200: ImportReport, 400: ErrorBody, 401: ErrorBody } },
  );
}
