import type { Server } from "bun";
import type { App } from "./app";

/**
 * No ceiling of Bun's own: past it, Bun answers an empty 413 before any route runs, even to a caller
 * without credentials. Every route applies its own limit instead, in its documented order (a
 * declared Content-Length is refused before reading; a chunked body is counted as it streams).
 */
const SERVER_MAX_BODY = Number.MAX_SAFE_INTEGER;

/**
 * Listens with one fetch function: requests to `/` go straight to the catching endpoint (the
 * hot path skips the router), everything else through Elysia.
 */
export function serve(built: Pick<App, "app" | "catcher">, opts: { host: string; port: number; idleTimeout?: number }): Server<undefined> {
  const { app, catcher } = built;
  return Bun.serve({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: SERVER_MAX_BODY,
    // Seconds a connection may stay silent; Bun's default (10) unless a test shortens it.
    ...(opts.idleTimeout === undefined ? {} : { idleTimeout: opts.idleTimeout }),
    development: false,
    fetch(received, server) {
      // Without a Host header (HTTP/1.0) or with an invalid one, Bun gives the bare path as the
      // URL; everything past this point, Elysia's router included, reads an absolute one.
      const request = received.url.charCodeAt(0) === 47 ? new Request(`http://localhost${received.url}`, received) : received;
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const c = url.charCodeAt(start + 1);
      if (c !== c /* NaN: path is exactly "/" */ || c === 63 /* "?" */) {
        return catcher.handle(request, server.requestIP(received)?.address ?? "", () => server.timeout(received, 0));
      }
      // Deleting a large channel takes seconds: its connection must not be closed as idle
      // meanwhile (Bun's idle timeout also runs while a handler awaits). Other requests keep it.
      if (request.method === "DELETE") server.timeout(received, 0);
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
