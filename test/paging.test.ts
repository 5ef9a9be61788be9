import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUTH, startTarget, type Target } from "./helpers/target";
import { ADMIN, basic, CUSTOMER, TRANSLATOR, translateConfig } from "./translate/setup";

/**
 * Every paged route of both services, and every kind of bad paging value: each is a 400 in the
 * API's documented error body naming the parameter, never a 500, and never a page. The checks do
 * not depend on how Elysia names its errors, so a minified build answers the same. Runs on every
 * target (MAILROOM_TEST_TARGET), the executable included.
 */
const BAD_NUMBERS = ["-1", "-0", "1.5", "1e3", "0x10", "0b1", "0o7", "1_0", "+1", " 1", "1 ", "", "abc", "NaN", "Infinity", "99999999999999999999", "1e400"];
const REPEATED = "repeated";

type Api = "management" | "translate";
type Route = { api: Api; path: string; param: string; values: string[]; auth: Record<string, string> };

const numberRoutes = (api: Api, path: string, params: Record<string, string[]>, auth: Record<string, string>): Route[] =>
  Object.entries(params).map(([param, extra]) => ({ api, path, param, values: [...BAD_NUMBERS, ...extra, REPEATED], auth }));

const ROUTES: Route[] = [
  ...numberRoutes("management", "/v1/hooks", { limit: ["0", "101", "1000"] }, AUTH),
  ...numberRoutes("management", "/v1/refusals", { limit: ["0", "1000000"] }, AUTH),
  {
    api: "management",
    path: "/v1/hooks",
    param: "after",
    values: ["", "0", "-1", "x", "01JD3Q9X0C2M8T6V4R2K8P1W5Z", "01jd3q9x0c2m8t6v4r2k8p1w5", REPEATED],
    auth: AUTH,
  },
  ...numberRoutes("translate", "/v1/orders", { page: ["1000001"], per_page: ["0", "101"] }, basic(CUSTOMER)),
  ...numberRoutes("translate", "/api/v1/orders", { page: ["1000001"], per_page: ["0", "101"] }, basic(CUSTOMER)),
  ...numberRoutes("translate", "/translator/v1/orders", { page: ["1000001"], per_page: ["0", "101"] }, basic(TRANSLATOR)),
];

const GOOD: Record<string, string> = { limit: "5", page: "1", per_page: "5", after: "01jd3q9x0c2m8t6v4r2k8p1w5z" };

describe("bad paging values are 400s in each API's error body", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({ translate: translateConfig({ rate_limit: { requests: 0 }, admins: [{ api_key: ADMIN }] }) });
  });
  afterAll(() => t.stop());
  for (const route of ROUTES) {
    test(`${route.path} ${route.param}`, async () => {
      for (const value of route.values) {
        const query =
          value === REPEATED ? `${route.param}=${GOOD[route.param]}&${route.param}=${GOOD[route.param]}` : `${route.param}=${encodeURIComponent(value)}`;
        const res = await t.call("GET", `${route.path}?${query}`, undefined, route.auth);
        const seen = { query, status: res.status, body: res.json };
        expect(seen).toMatchObject({ query, status: 400 });
        if (route.api === "management") {
          expect(seen.body).toEqual({ code: 3, message: expect.stringContaining(`${route.param}:`), details: [] });
        } else {
          expect(seen.body).toEqual({
            code: "INVALID_REQUEST",
            description: expect.stringContaining(`${route.param}:`),
            parameters: expect.objectContaining({ field: route.param }),
          });
        }
      }
    });
  }

  test("the good values of the same routes are pages", async () => {
    for (const route of ROUTES) {
      const res = await t.call("GET", `${route.path}?${route.param}=${GOOD[route.param]}`, undefined, route.auth);
      expect({ path: route.path, param: route.param, status: res.status }).toEqual({ path: route.path, param: route.param, status: 200 });
      expect(Array.isArray(res.json)).toBe(true);
    }
  });
});
