import { Elysia } from "elysia";
import { notFound } from "../lib/errors";
import { buildDocument, type DocumentDef, type RouteInfo } from "./generate";
import { DOCS_CSS, DOCS_HTML } from "./page";
import { DOCS_JS } from "./page-script";
import { translateDocuments } from "./translate";
import { webhooksDocument } from "./webhooks";

export const DOCUMENTS: readonly DocumentDef[] = [webhooksDocument, ...translateDocuments];

/** The documents are public, like the contract they describe; the page loads nothing from elsewhere. */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
};
const hidden = { detail: { hide: true } };

/**
 * GET /openapi/ (the list), /openapi/<name>.json (an OpenAPI 3.1 document) and /docs (a page
 * rendering them). `routes` gives the app's route table; the documents are built from it on the
 * first request, when the app is complete, and kept (the routes do not change while it runs).
 */
export function openapiRoutes(routes: () => readonly RouteInfo[]) {
  let built: Map<string, string> | undefined;
  const documents = () => (built ??= new Map(DOCUMENTS.map((d) => [d.name, JSON.stringify(buildDocument(d, routes()))])));
  const index = JSON.stringify({
    documents: DOCUMENTS.map((d) => ({ name: d.name, title: d.title, url: `/openapi/${d.name}.json` })),
  });
  const answer = (body: string, type: string, headers: Record<string, string> = {}) => new Response(body, { headers: { "content-type": type, ...headers } });

  return new Elysia()
    .get("/openapi/", () => answer(index, "application/json"), hidden)
    .get("/openapi", () => answer(index, "application/json"), hidden)
    .get(
      "/openapi/:file",
      ({ params }) => {
        const doc = params.file.endsWith(".json") ? documents().get(params.file.slice(0, -5)) : undefined;
        if (doc === undefined) throw notFound(`no OpenAPI document ${params.file}; see /openapi/`);
        return answer(doc, "application/json");
      },
      hidden,
    )
    .get("/docs", () => answer(DOCS_HTML, "text/html; charset=utf-8", PAGE_HEADERS), hidden)
    .get("/docs/docs.js", () => answer(DOCS_JS, "text/javascript; charset=utf-8", PAGE_HEADERS), hidden)
    .get("/docs/docs.css", () => answer(DOCS_CSS, "text/css; charset=utf-8", PAGE_HEADERS), hidden);
}
