import type { Server } from "bun";
import type { App } from "./app";
import { parseSize } from "./lib/units";

/**
 * Bun.serve's own ceiling, far above any route's limit: Bun answers an empty 413 past it, so every
 * route applies its own limit first (a declared Content-Length is refused before reading).
 */
const SERVER_MAX_BODY = 1024 ** 3;

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
    maxRequestBodySize: Math.max(hooksMax + 1, SERVER_MAX_BODY),
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
