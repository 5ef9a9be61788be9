import type { Server } from "bun";
import type { App } from "./app";
import type { RelaySocketData } from "./relay/hub";
import type { Served } from "./lib/memory";
import { PUBLIC_LANDING_PAGE } from "./hooks/landing";
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
export function serve(
  built: Pick<App, "app" | "catcher" | "connections" | "dashboard" | "relay">,
  opts: { host: string; port: number; idleTimeout?: number; served?: Served },
): Server<RelaySocketData> {
  const { app, catcher, relay } = built;
  /** Requests received, for the memory keeper's busy probe (lib/memory.ts). */
  const served = opts.served ?? { requests: 0, lastAt: 0 };
  /** Requests given a new URL below, to the ones Bun received (which Bun's timeout knows). */
  const received = new WeakMap<Request, Request>();
  const server: Server<RelaySocketData> = Bun.serve<RelaySocketData>({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: SERVER_MAX_BODY,
    // Bun would share a port already in use (SO_REUSEPORT), and the kernel would split senders
    // between two instances: a port in use is an error instead (EADDRINUSE).
    reusePort: false,
    // Seconds a connection may stay silent; Bun's default (10) unless a test shortens it.
    ...(opts.idleTimeout === undefined ? {} : { idleTimeout: opts.idleTimeout }),
    development: false,
    // The dashboard's page and assets (an HTML import), and its JSON endpoints through Elysia.
    routes: dashboardRoutes(dashboardPage, (original, server) => {
      served.requests++;
      served.lastAt = performance.now();
      // As in fetch below: without a Host header Bun gives the bare path, which nothing past here reads.
      const request = absolute(original);
      if (request !== original) received.set(request, original);
      if (request.url.includes("/ui/api/stream")) server.timeout(original, 0);
      built.dashboard.noteIp(request, server.requestIP(original)?.address ?? "");
      return app.fetch(request);
    }),
    fetch(original, server) {
      served.requests++;
      served.lastAt = performance.now();
      // Without a Host header (HTTP/1.0) or with an invalid one, Bun gives the bare path as the
      // URL; everything past this point, Elysia's router included, reads an absolute one.
      const request = absolute(original);
      if (request !== original) received.set(request, original);
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const c = url.charCodeAt(start + 1);
      if (Number.isNaN(c) /* the path is exactly "/" */ || c === 63 /* "?" */) {
        return catcher.handle(request, server.requestIP(original)?.address ?? "");
      }
      if (url.startsWith(relay.prefix, start)) return relay.handle(request, original, server);
      // A live stream (GET /v1/stream, /ui/api/stream) sends heartbeats of its own and has no body
      // to wait for: the idle timeout would cut it.
      if (request.method === "GET" && isStream(url, start)) server.timeout(original, 0);
      return app.fetch(request);
    },
    websocket: relay.websocket,
    error() {
      return new Response('{"code":13,"message":"internal error","details":[]}', {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    },
  });
  // Deleting a large channel takes seconds: its connection must not be closed as idle meanwhile
  // (Bun's idle timeout also runs while a handler awaits). Only that route asks, once the caller
  // is authenticated: any other request, and a body that never ends, keeps the timeout.
  built.connections.keepOpen = (request) => server.timeout(received.get(request) ?? request, 0);
  return server;
}

/** The answer of the public listener to any path it does not serve, in the management API's error body. */
const NOT_PUBLIC = '{"code":5,"message":"not found: this listener serves only the catching endpoint (/?channel=NAME) and the relay","details":[]}';

/**
 * The public listener ([server.public]): only what the internet should reach. Requests to `/`
 * (the catching endpoint, which also answers provider handshakes and GET / as the health check)
 * and the relay endpoint; everything else (the dashboard, the management and
 * translation APIs, metrics, the docs) answers 404 here, whatever credentials it carries.
 */
export function servePublic(built: Pick<App, "catcher" | "relay">, opts: { host: string; port: number; served?: Served }): Server<RelaySocketData> {
  const { relay } = built;
  const served = opts.served ?? { requests: 0, lastAt: 0 };
  return Bun.serve<RelaySocketData>({
    hostname: opts.host,
    port: opts.port,
    maxRequestBodySize: SERVER_MAX_BODY,
    reusePort: false,
    development: false,
    fetch(original, server) {
      served.requests++;
      served.lastAt = performance.now();
      const request = absolute(original);
      const url = request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      const c = url.charCodeAt(start + 1);
      // GET / (and GET /?): the health check and a page that says what this is, without the private listener's links.
      const bare = Number.isNaN(c) || (c === 63 && url.length === start + 2);
      if (bare && (request.method === "GET" || request.method === "HEAD"))
        return new Response(request.method === "HEAD" ? null : PUBLIC_LANDING_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
      if (Number.isNaN(c) || c === 63) return built.catcher.handle(request, server.requestIP(original)?.address ?? "");
      if (url.startsWith(relay.prefix, start)) return relay.handle(request, original, server);
      return new Response(NOT_PUBLIC, { status: 404, headers: { "content-type": "application/json" } });
    },
    websocket: relay.websocket,
    error() {
      return new Response('{"code":13,"message":"internal error","details":[]}', {
        status: 500,
        headers: { "content-type": "application/json" },
      });
    },
  });
}

/** The metrics' own listener ([metrics] listen): GET /metrics and nothing else. */
export function serveMetrics(app: { fetch(request: Request): Response | Promise<Response> }, opts: { host: string; port: number }): Server<undefined> {
  return Bun.serve({ hostname: opts.host, port: opts.port, development: false, fetch: (request) => app.fetch(request) });
}

/** The request with an absolute URL: Bun gives the bare path when there is no (valid) Host header. */
function absolute(request: Request): Request {
  return request.url.charCodeAt(0) === 47 ? new Request(`http://localhost${request.url}`, request) : request;
}

/** Whether the path (from `start` in the URL) is one of the live streams. */
function isStream(url: string, start: number): boolean {
  return url.startsWith("/v1/stream", start) || url.startsWith("/ui/api/stream", start);
}
