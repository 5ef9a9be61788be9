/** The issue routes: /v1 behind API keys, /ui/api behind sessions (members and admins alike), their errors in the management format. */
import { afterEach, describe, expect, test } from "bun:test";
import { type DashboardApp, dashboardApp, ORIGIN } from "../dashboard/support";

type App = DashboardApp;
let app: App;
afterEach(() => app?.close());

async function withIssues(n: number): Promise<string[]> {
  app = await dashboardApp({
    channels: Array.from({ length: n }, (_, i) => ({ name: `c${i}` })),
    alerts: [{ name: "quiet", kind: "silence", channels: ["c*"], for: "1m" }],
  });
  app.clock.advance(2 * 60_000);
  await app.runner.tick();
  return ((await app.call("GET", "/v1/issues")).json as { id: string }[]).map((i) => i.id);
}

describe("issue routes", () => {
  test("a member and an admin list, read, acknowledge and resolve under /ui/api; history names them", async () => {
    const [a, b] = await withIssues(2);
    for (const who of [app.member, app.admin]) expect((await app.call("GET", "/ui/api/issues?state=open", undefined, who)).json).toHaveLength(2);
    expect((await app.call("POST", `/ui/api/issues/${a}/ack`, undefined, app.member)).json.state).toBe("acknowledged");
    expect((await app.call("POST", `/ui/api/issues/${a}/resolve`, undefined, app.admin)).json.history.map((h: { by: string }) => h.by)).toEqual([
      "mailroom",
      "max@example.com",
      "ada@example.com",
    ]);
    expect((await app.call("GET", `/ui/api/issues/${b}`, undefined, app.member)).json.state).toBe("open");
    expect((await app.call("GET", "/ui/api/issues", undefined, ORIGIN)).status).toBe(401);
    expect((await app.call("POST", `/ui/api/issues/${b}/ack`, undefined, ORIGIN)).status).toBe(401);
    expect((await app.call("GET", "/v1/issues", undefined, {})).status).toBe(401);
  });

  test("paging, filters and errors: 400 for a bad state or id, 404 for none, 409 for a move its state does not allow", async () => {
    const ids = await withIssues(3);
    const first = (await app.call("GET", "/v1/issues?limit=2")).json as { id: string }[];
    const rest = (await app.call("GET", `/v1/issues?limit=2&after=${first[1]!.id}`)).json as { id: string }[];
    expect([...first, ...rest].map((i) => i.id)).toEqual([...ids]);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect((await app.call("GET", "/v1/issues?state=closed")).json).toMatchObject({ code: 3 });
    expect((await app.call("GET", "/v1/issues?limit=0")).json).toMatchObject({ code: 3 });
    expect((await app.call("GET", "/v1/issues/nope")).json).toMatchObject({ code: 3 });
    expect((await app.call("GET", "/v1/issues/01jd3q9x0c2m8t6v4r2k8p1w5z")).json).toMatchObject({ code: 5, details: [] });
    await app.call("POST", `/v1/issues/${ids[0]}/resolve`);
    const again = await app.call("POST", `/v1/issues/${ids[0]}/ack`);
    expect([again.status, again.json.code]).toEqual([409, 9]);
    expect((await app.call("GET", "/v1/issues?state=resolved")).json.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    // Resolved by hand while the silence holds: not opened again until a hook came.
    app.clock.advance(60_000);
    await app.runner.tick();
    expect((await app.call("GET", "/v1/issues")).json).toHaveLength(3);
  });
});
