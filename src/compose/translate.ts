import { Elysia } from "elysia";
import { translateCounter } from "../metrics/instrument";
import { createTranslate } from "../translate";
import type { Base } from "./base";

/**
 * The translation service (revisions A and B, the translator and admin APIs) with its own error
 * handler, which answers the vendor's error object, and its requests counted by route and status.
 */
export function createTranslateService({ config, storage, clock, log, metrics }: Base) {
  const translate = createTranslate({ config, store: storage.translate, clock, log });
  const counted = translateCounter(metrics);
  /** Errors are counted here, the only place their status is known; answers after their handler. */
  function errors({ error, code, request, route }: { error: unknown; code: string | number; request: Request; route?: string }): Response {
    const response = translate.errorResponse(error, code);
    counted.error(new URL(request.url).pathname, route, response.status);
    return response;
  }
  const routes = new Elysia()
    .onError(errors)
    .onAfterHandle((ctx) => void counted.response(ctx))
    .use(translate.routes);
  return {
    routes,
    errors,
    /** Whether a path is the translation service's (its gate runs before routing: errors there are answered by `errors` too). */
    owns: translate.isTranslatePath,
    services: translate.services,
    worker: translate.worker,
    init: translate.init,
  };
}

export type TranslateService = ReturnType<typeof createTranslateService>;
