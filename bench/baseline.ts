/**
 * The ingest baseline: a raw Bun.serve answering 200 without reading or storing anything,
 * i.e. the ceiling of this runtime on this machine.
 *
 * With `--read` it is the reference instead (not a target): it also reads what any receiver must
 * read, the sender's address, the headers and the body, and still stores nothing. The gap between
 * the two is what reading a request costs before a byte is kept.
 */
const read = process.argv.includes("--read");
const headers = { "content-type": "application/json" };

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  development: false,
  fetch: read
    ? async (request, srv) => {
        const ip = srv.requestIP(request)?.address ?? "";
        const body = await request.bytes();
        const json = JSON.stringify(request.headers.toJSON());
        return new Response(`{"id":"${ip.length + body.byteLength + json.length}"}`, { headers });
      }
    : () => new Response('{"id":"0"}', { headers }),
});
console.log(`${read ? "reference" : "baseline"} listening on http://${server.hostname}:${server.port}`);
