import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

const KEY = "customer-key-query-1";

test("bad page and per_page values name the field in parameters.field, in both revisions", async () => {
  const t = createTestApp({ translate: { accounts: [{ id: 1, api_keys: [KEY] }], rate_limit: { requests: 0 } } });
  const auth = { authorization: `Bearer ${KEY}` };
  for (const base of ["/v1", "/api/v1"]) {
    for (const [query, field] of [
      ["page=-1", "page"],
      ["page=abc", "page"],
      ["page=99999999999999999999", "page"],
      ["per_page=0", "per_page"],
      ["per_page=101", "per_page"],
    ]) {
      const res = await t.call("GET", `${base}/orders?${query}`, undefined, auth);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("INVALID_REQUEST");
      expect([base, query, res.json.parameters.field]).toEqual([base, query, field]);
    }
  }
});
