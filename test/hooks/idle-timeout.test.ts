import { afterAll, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { untilClosed } from "../helpers/raw";

const t = createTestApp();
const server = t.listen({ idleTimeout: 1 });
const port = Number(new URL(server.url).port);
afterAll(() => server.stop());

// Bun enforces an idle timeout of 1 s within a few seconds; without one these never close.
test("a DELETE without credentials whose body never ends is closed as idle, whatever its path", async () => {
  const paths = ["/v1/channels/any", "/v1/hooks/01jd3q9x0c2m8t6v4r2k8p1w5z", "/v1/nothing", "/api/v1/orders/1"];
  const answers = await Promise.all([
    ...paths.map((path) => untilClosed(port, `DELETE ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`)),
    untilClosed(port, "DELETE /v1/channels/any HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"),
  ]);
  // Whatever was answered before the body (401, 404), the socket did not stay open.
  for (const answer of answers) expect(answer === "" || /^HTTP\/1\.1 4\d\d/.test(answer)).toBe(true);
}, 15_000);
