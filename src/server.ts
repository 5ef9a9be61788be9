import type { Server } from "bun";
import type { App } from "./app";
import { dashboardRoutes } from "./dashboard/page";
import dashboardPage from "./ui/index.html";

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
export function serve(built: Pick<App, "app" | "catcher" | "dashboard">, opts: { host: string; port: number; idleTimeout?: number }): Server<undefined> {
  const { app, catcher } = built;
  const server: Server<undefined> = Bun.serve({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: SERVER_MAX_BODY,
    // Seconds a connection may stay silent; Bun's default (10) unless a test shortens it.
    ...(opts.idleTimeout === undefined ? {} : { idleTimeout: opts.idleTimeout }),
    development: false,
    // The dashboard's page and assets (an HTML import), and its JSON endpoints through Elysia.
    routes: dashboardRoutes(dashboardPage, (request, server) => {
      if (request.url.includes("/ui/api/stream")) server.timeout(request, 0);
      built.dashboard.noteIp(request, server.requestIP(request)?.address ?? "");
      return app.fetch(request);
    }),
    fetch(received, server) {
      // Without a Host header (HTTP/1.0) or with an invalid one, Bun gives the bare path as the
      // URL; everything past this point, Elysia's router included, reads an absolute one.
      const request = received.url.charCodeAt(0) === 47 ? new Request(`http://localhost${received.url}`, received) : received;
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const c = url.charCodeAt(start + 1);
      if (c !== c /* NaN: path is exactly "/" */ || c === 63 /* "?" */) {
        return catcher.handle(request, server.requestIP(received)?.address ?? "");
      }
      // Deleting a large channel takes seconds: its connection must not be closed as idle
      // meanwhile (Bun's idle timeout also runs while a handler awaits). Other requests keep it.
      // Nor may a live stream (GET /v1/stream, /ui/api/stream): it sends heartbeats of its own.
      if (request.method === "DELETE" || isStream(url, start)) server.timeout(received, 0);
      return app.fetch(request);
    },
    error() {
      return new Response('{"code":13,"message":"internal error","details":[]}', {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    },
  });
  return server;
}

/** Whether the path (from `start` in the URL) is one of the live streams. */
function isStream(url: string, start: number): boolean {
  return url.startsWith("/v1/stream", start) || url.startsWith("/ui/api/stream", start);
}
