import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { startTarget } from "../helpers/target";

/** Revision A of the translation API shares /v1 and has its own keys; everything else there is ours. */
const TRANSLATION_ROOTS = new Set(["account", "orders", "translate", "rates", "calculate"]);

// The route table is read from the app in process; the requests go to the target (MAILROOM_TEST_TARGET).
test("every webhook management route the app registers answers 401 without a valid token", async () => {
  const t = await startTarget();
  const routes = (createTestApp().app.routes as { method: string; path: string }[]).filter(
    (r) => r.path.startsWith("/v1/") && !TRANSLATION_ROOTS.has(r.path.split("/")[2]!),
  );
  // Guards against the filter silently matching nothing.
  expect(routes.length).toBeGreaterThanOrEqual(12);
  for (const { method, path } of routes) {
    const concrete = path.replace(":id", "01aaaaaaaaaaaaaaaaaaaaaaaa").replace(":name", "some-channel");
    for (const headers of [{}, { authorization: "Bearer not-a-configured-token" }] as Record<string, string>[]) {
      const res = await t.call(method, concrete, method === "GET" ? undefined : "{}", headers);
      expect([method, path, res.status]).toEqual([method, path, 401]);
      expect(res.headers.get("www-authenticate")).toBe("Bearer");
    }
  }
});
