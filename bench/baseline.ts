/**
 * The ingest baseline: a raw Bun.serve answering 200 without reading or storing anything,
 * i.e. the ceiling of this runtime on this machine.
 */
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  development: false,
  fetch: () => new Response('{"id":"0"}', { headers: { "content-type": "application/json" } }),
});
console.log(`baseline listening on http://${server.hostname}:${server.port}`);
