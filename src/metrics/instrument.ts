import { apiOf } from "../translate/gate";
import type { Metrics } from ".";

/** The catching endpoint, timed from the request to its answer (the body is not sent yet). */
export function timedCatcher<C extends { handle(request: Request, ip: string): Promise<Response> }>(catcher: C, metrics: Metrics): C {
  return {
    ...catcher,
    async handle(request: Request, ip: string): Promise<Response> {
      const start = performance.now();
      try {
        return await catcher.handle(request, ip);
      } finally {
        metrics.catchDuration((performance.now() - start) / 1000);
      }
    },
  };
}

/** Route label of a translation request refused by the gate, before any route was matched. */
export const GATE = "_gate";

/**
 * Counts translation requests by revision, route pattern and status. Errors are counted where
 * they are mapped to a response (the only place their status is known); every other answer right
 * after its route's handler, where Elysia's `set.status` or the returned Response carries it
 * (onAfterResponse would see neither reliably, and runs only once the answer is sent).
 */
export function translateCounter(metrics: Metrics) {
  return {
    /** From onError, with the response it maps the error to. */
    error(path: string, route: string | undefined, status: number): void {
      const api = apiOf(path);
      if (api) metrics.translated(api, route || GATE, status);
    },
    /** From onAfterHandle (errors never reach it); ignores other services' paths. */
    response(ctx: { request: Request; route?: string; set: { status?: number | string }; responseValue?: unknown }): void {
      const url = ctx.request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const end = url.indexOf("?", start);
      const api = apiOf(url.slice(start, end < 0 ? undefined : end));
      if (!api) return;
      const status = ctx.responseValue instanceof Response ? ctx.responseValue.status : Number(ctx.set.status ?? 200);
      metrics.translated(api, ctx.route || GATE, status);
    },
  };
}
