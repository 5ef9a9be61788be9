import { hooksErrorResponse } from "../hooks/errors";
import type { RouteInfo } from "../openapi/generate";
import type { Base } from "./base";
import type { TranslateService } from "./translate";

/**
 * The app's last error handler, for what no API's own handler sees: a request no route matched
 * (404, or 405 where the path has routes for other methods) and a check that runs before routing
 * failed (the translation gate, a relay key refused, start-up's reads failed). Such a request is
 * answered in the format of the API its path belongs to: the translation service's, else the
 * webhook service's.
 */
export function createUnrouted({ log }: Base, { translate, routes }: { translate: TranslateService; routes: () => readonly RouteInfo[] }) {
  /** The management routes as patterns, built on first use (the app is complete by then). */
  let routeTable: { pattern: RegExp; method: string }[] | undefined;
  /** Methods with a management route on this path (GET also allows HEAD). */
  function methodsOf(path: string): string[] {
    routeTable ??= routes()
      .filter((r) => r.method !== "ALL" && (r.path.startsWith("/v1/") || r.path === "/metrics") && !translate.owns(r.path))
      .map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+")}$`) }));
    const methods = routeTable.filter((r) => r.pattern.test(path)).map((r) => r.method);
    if (methods.includes("GET")) methods.push("HEAD");
    return [...new Set(methods)];
  }

  return (ctx: { error: unknown; code: string | number; request: Request; route?: string }): Response =>
    translate.owns(new URL(ctx.request.url).pathname) ? translate.errors(ctx) : hooksErrorResponse(ctx.error, ctx.code, log, ctx.request, methodsOf);
}
