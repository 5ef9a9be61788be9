import type { HTMLBundle } from "bun";
import { basename } from "node:path";

/** Headers of every dashboard response: no script but our own, no framing, no sniffing, no referrer. */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/** The same response with the security headers (a streamed body stays streamed). */
export function secured(res: Response): Response {
  const headers = new Headers(res.headers);
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) headers.set(k, v);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

type Handler = (req: Request, server: Bun.Server<undefined>) => Response | Promise<Response>;

/**
 * Bun.serve routes for the single-page app bundled from src/ui/index.html. In the executable the
 * bundle lists its files, which are served here with the security headers (the page and every
 * unknown /ui path get index.html, so links into the app work); run from source, Bun serves the
 * bundle itself. `/ui/api/*` goes to `api` (Elysia), with the same headers.
 */
export function dashboardRoutes(page: HTMLBundle, api: Handler): Record<string, Handler | HTMLBundle> {
  const routes: Record<string, Handler | HTMLBundle> = {
    "/ui/api/*": async (req, server) => secured(await api(req, server)),
  };
  const files = (page as unknown as { files?: { path: string; loader: string; headers: Record<string, string> }[] }).files;
  if (!files?.length) return { ...routes, "/ui": page, "/ui/*": page };
  for (const file of files) {
    const serveFile: Handler = () =>
      new Response(Bun.file(file.path), {
        headers: {
          ...SECURITY_HEADERS,
          "content-type": file.headers["content-type"] ?? "application/octet-stream",
          "cache-control": file.loader === "html" ? "no-cache" : "public, max-age=31536000, immutable",
        },
      });
    if (file.loader === "html") Object.assign(routes, { "/ui": serveFile, "/ui/*": serveFile });
    else routes[`/${basename(file.path)}`] = serveFile;
  }
  return routes;
}
