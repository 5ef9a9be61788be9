/**
 * The /docs page: HTML, a style sheet and a script, embedded as strings so that the executable
 * serves them with no files and no network. The script fetches /openapi/ and renders the chosen
 * document; nothing is inline, so the page runs under a CSP without 'unsafe-inline'.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mailroom API documents</title>
<link rel="stylesheet" href="/docs/docs.css">
<script src="/docs/docs.js" defer></script>
</head><body>
<header><h1>Mailroom API documents</h1><nav id="documents"></nav></header>
<main id="main"><p>Loading the documents from <a href="/openapi/">/openapi/</a>…</p></main>
<noscript><p>This page needs JavaScript to render; the OpenAPI documents themselves are listed at <a href="/openapi/">/openapi/</a>.</p></noscript>
</body></html>
`;

export const DOCS_CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fff}
header{padding:1rem 2rem;border-bottom:1px solid #ddd;background:#fafafa}
h1{font-size:1.4rem;margin:0 0 .5rem}
nav a{margin-right:1rem}
nav a.current{font-weight:bold;text-decoration:none;color:#1d1d1f}
main{max-width:60rem;padding:1rem 2rem 4rem}
code,pre,.path{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
section.op{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.method{display:inline-block;min-width:4.5rem;font-weight:bold;text-transform:uppercase}
.get{color:#0b6bcb}.post{color:#1a7f37}.put{color:#9a6700}.delete{color:#cf222e}.patch{color:#8250df}
.opid{color:#666;margin-left:1rem}
table{border-collapse:collapse;margin:.25rem 0}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
ul.schema{margin:.2rem 0;padding-left:1.2rem}
.muted{color:#666}
h3{margin:.75rem 0 .25rem;font-size:1rem}
`;
