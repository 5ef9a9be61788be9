import { shellCommand } from "../lib/shell";

/** The example command, quoted as every generated command is (lib/shell.ts). */
export const CATCH_COMMAND = shellCommand([
  ["curl", "-X", "POST", "http://HOST/?channel=demo", "-d", '{"hello":"world"}', "-H", "content-type: application/json"],
]);
const html = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** What a browser sees at GET /: what this server is and where to go next. */
export const LANDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mailroom</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}</style>
</head><body>
<h1>Mailroom</h1>
<p><a href="/ui/">Open the dashboard</a>: watch hooks arrive, inspect and act on them, manage channels, guards and API keys.</p>
<p>This server catches webhooks. Send any request to <code>/?channel=NAME</code> and it is kept, byte for byte.</p>
<ul>
<li>Catch: <code>${html(CATCH_COMMAND)}</code></li>
<li>Inspect: <code>GET /v1/hooks?channel=demo</code> with <code>Authorization: Bearer &lt;token&gt;</code></li>
</ul>
<p>The APIs (webhook management and translation ordering) are described at <a href="/docs">/docs</a>, and as OpenAPI 3.1 documents listed at <a href="/openapi/">/openapi/</a>.</p>
</body></html>
`;

/**
 * What a browser sees at GET / on the public listener ([server.public]): no link, since the
 * dashboard, the APIs and the docs are not served there, and nothing that says they exist.
 */
export const PUBLIC_LANDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Webhooks</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}</style>
</head><body>
<p>This address catches webhooks: send them to <code>/?channel=NAME</code>.</p>
</body></html>
`;
