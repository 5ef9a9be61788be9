import type { Server } from "bun";
import type { App } from "./app";
import { parseSize } from "./lib/units";

/** Bun.serve's own ceiling; every route applies its own, smaller limit while reading. */
const TRANSLATE_MAX_BODY = 31 * 1024 * 1024;

/**
 * Listens with one fetch function: requests to `/` go straight to the catching endpoint (the
 * hot path skips the router), everything else through Elysia.
 */
export function serve(built: Pick<App, "app" | "catcher">, opts: { host: string; port: number; maxBody: string | number }): Server<undefined> {
  const { app, catcher } = built;
  const hooksMax = parseSize(opts.maxBody)!;
  return Bun.serve({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: Math.max(hooksMax, TRANSLATE_MAX_BODY) + 1,
    development: false,
    fetch(request, server) {
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const c = url.charCodeAt(start + 1);
      if (c !== c /* NaN: path is exactly "/" */ || c === 63 /* "?" */) {
        return catcher.handle(request, server.requestIP(request)?.address ?? "");
      }
      return app.fetch(request);
    },
    error() {
      return new Response('{"code":13,"message":"internal error","details":[]}', {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    },
  });
}
