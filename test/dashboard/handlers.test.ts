import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { receivers } from "../runner/receiver";
import { AUTH, dashboardApp } from "./support";

afterAll(removeTempDirs);

const receiver = receivers();

describe("forward handlers added in the dashboard", () => {
  test("a forward handler added to a channel delivers its hooks (pending ones too) with the headers given; removed, it stops", async () => {
    const target = receiver({ status: 200 }, { status: 200 }, { status: 200 });
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const added = await app.call(
      "POST",
      "/ui/api/channels/app/handlers",
      { name: "to-app", url: target.url, headers: { "x-extra": "yes" }, max_attempts: 3, backoff: { initial: "2s" } },
      app.admin,
    );
    expect(added.status).toBe(200);
    expect(added.json).toEqual({
      name: "to-app",
      channel: "app",
      url: target.url,
      headers: { "x-extra": "[write-only]" },
      max_attempts: 3,
      backoff: { initial: "2000ms", max: "600000ms" },
      timeout: "10000ms",
      chaos: null,
      when: null,
      rate: null,
      breaker: null,
    });
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([added.json]);

    const [id] = await app.catchHooks("app", 1);
    await app.runner.tick();
    // The hook caught before it was added is still pending: it gets the handler too, as with a configured one.
    expect(target.received).toHaveLength(2);
    expect(target.received[0]!.headers["x-extra"]).toBe("yes");
    expect((await app.call("GET", `/v1/hooks/${id}`)).json.status).toBe("handled");
    expect((await app.call("DELETE", "/ui/api/channels/app/handlers/to-app", undefined, app.admin)).status).toBe(200);
    await app.catchHooks("app", 1);
    await app.runner.tick();
    expect(target.received).toHaveLength(2);
  });

  test("command and module handlers are refused: a dashboard user never makes the host run a program", async () => {
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    for (const body of [
      { name: "run", kind: "command", argv: ["touch", "pwned"] },
      { name: "mod", kind: "module", path: "evil.ts" },
      { name: "sneaky", kind: "forward", url: "http://127.0.0.1:1/", argv: ["sh"] },
    ]) {
      const res = await app.call("POST", "/ui/api/channels/app/handlers", body, app.admin);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe(3);
    }
    expect((await app.call("POST", "/ui/api/channels/app/handlers", { name: "run", kind: "command", argv: ["x"] }, app.admin)).json.message).toContain(
      "only forward handlers",
    );
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([]);
  });

  test("a forward with a when runs only on the hooks it wants; the others end skipped, handled", async () => {
    const target = receiver({ status: 200 });
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const added = await app.call("POST", "/ui/api/channels/app/handlers", { name: "billing", url: target.url, when: "type:invoice.*" }, app.admin);
    expect(added.status).toBe(200);
    expect(added.json.when).toBe("type:invoice.*");
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([added.json]);
    const json = { "content-type": "application/json" };
    const caught = async (body: string) => ((await (await app.post("app", body, json)).json()) as { id: string }).id;
    const paid = await caught('{"type":"invoice.paid"}');
    const refund = await caught('{"type":"charge.refunded"}');
    await app.runner.tick();
    expect(target.received.map((r) => new TextDecoder().decode(r.body))).toEqual(['{"type":"invoice.paid"}']);
    for (const [id, outcome] of [
      [paid, "succeeded"],
      [refund, "skipped"],
    ]) {
      expect((await app.call("GET", `/v1/hooks/${id}`)).json.status).toBe("handled");
      expect((await app.call("GET", `/v1/hooks/${id}/attempts`)).json.map((a: { outcome: string }) => a.outcome)).toEqual([outcome]);
    }
  });

  test("a when that does not parse, a bad rate or breaker: 400 saying where, as check-config says it; nothing is stored", async () => {
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const cases: [Record<string, unknown>, string][] = [
      [{ when: "type:invoice.* OR" }, "when: does not parse at character 18: expected a term, found the end of the query"],
      [{ when: '"unclosed' }, "when: does not parse at character 1: a double quote is not closed"],
      [{ rate: "fast" }, 'rate: must be a rate such as "10/s", "600/m" or "5/10s" (over a span longer than zero)'],
      [{ breaker: { failures: 0 } }, "breaker.failures: expected integer to be greater or equal to 1"],
    ];
    for (const [more, message] of cases) {
      const res = await app.call("POST", "/ui/api/channels/app/handlers", { name: "f", url: "http://127.0.0.1:9/", ...more }, app.admin);
      expect({ more, status: res.status, json: res.json }).toEqual({ more, status: 400, json: { code: 3, message, details: [] } });
    }
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([]);
  });

  test("rate and breaker are kept and applied, and survive a restart with the when", async () => {
    const target = receiver({ status: 500 });
    const dbPath = join(tempDir("mailroom-forwards-"), "mailroom.db");
    const first = await dashboardApp({}, { dbPath });
    await first.catchHooks("app", 1);
    const body = { name: "paced", url: target.url, when: "channel:app", rate: "10/s", breaker: { failures: 2, cool_down: "10s" }, backoff: { initial: "1h" } };
    const added = await first.call("POST", "/ui/api/channels/app/handlers", body, first.admin);
    expect(added.status).toBe(200);
    expect(added.json).toMatchObject({ when: "channel:app", rate: "10/s", breaker: { failures: 2, cool_down: "10s" } });
    await first.writer.drain();
    first.close();

    const second = createTestApp({}, { dbPath });
    try {
      const listed = (await second.call("GET", "/v1/handlers/paced")).json;
      expect(listed).toMatchObject({ rate: "10/s", breaker: { state: "closed", threshold: 2, cool_down: "10000ms" } });
      await second.runner.tick();
      expect(target.received).toHaveLength(1); // the hook caught before the restart
      await second.catchHooks("app", 1);
      await second.runner.tick();
      expect(target.received).toHaveLength(1); // paced: the next start is 100 ms after the first
      second.clock.advance(100);
      await second.runner.tick();
      expect(target.received).toHaveLength(2);
      // Two failures in a row opened its breaker.
      expect((await second.call("GET", "/v1/handlers/paced")).json.state).toBe("breaker_open");
    } finally {
      second.close();
    }
  });

  test("a URL or headers fetch would refuse are 400 in check-config's words, every problem named; nothing is stored", async () => {
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const NAME = "not a valid header name: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (no spaces)";
    const VALUE = "not a valid header value: no CR, LF or other control character but tab, and no character above U+00FF";
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "x", url: "http://exa mple.com/x" }, "url: the host must not contain spaces"],
      [{ name: "x", url: "http://a.example/", headers: { "bad header": "v" } }, `headers.bad header: ${NAME}`],
      [{ name: "x", url: "http://a.example/", headers: { "x-token": "s3cret\r\nx-evil: 1" } }, `headers.x-token: ${VALUE}`],
      [
        { name: "x", url: "http://a.example:99999/", headers: { "x\r\ny": "v" } },
        `url: not a valid URL (check the host name, and that the port is at most 65535); headers.x\\r\\ny: ${NAME}`,
      ],
    ];
    for (const [body, message] of cases) {
      const res = await app.call("POST", "/ui/api/channels/app/handlers", body, app.admin);
      expect({ body, status: res.status, json: res.json }).toEqual({ body, status: 400, json: { code: 3, message, details: [] } });
      expect(res.text).not.toContain("s3cret");
    }
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([]);
  });

  test("bad input, unknown channels, names taken, roles and origin", async () => {
    const app = await dashboardApp({ handlers: [{ name: "cfg", kind: "forward", url: "http://127.0.0.1:1/" }] });
    await app.catchHooks("app", 1);
    for (const body of [
      {},
      { name: "x" },
      { name: "x", url: "ftp://x" },
      { name: "x", url: "http://a/", max_attempts: 0 },
      { name: "x", url: "http://a/", url_env: "HOME" },
      { name: "x", url: "http://a/", backoff: { initial: "soon" } },
      "[]",
    ]) {
      const res = await app.call("POST", "/ui/api/channels/app/handlers", body, app.admin);
      expect([JSON.stringify(body), res.status, res.json?.code]).toEqual([JSON.stringify(body), 400, 3]);
    }
    expect((await app.call("POST", "/ui/api/channels/none/handlers", { name: "x", url: "http://a/" }, app.admin)).status).toBe(404);
    expect((await app.call("POST", "/ui/api/channels/app/handlers", { name: "cfg", url: "http://a/" }, app.admin)).status).toBe(409);
    expect((await app.call("DELETE", "/ui/api/channels/app/handlers/none", undefined, app.admin)).status).toBe(404);
    expect((await app.call("POST", "/ui/api/channels/app/handlers", { name: "x", url: "http://a/" }, app.member)).status).toBe(403);
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, AUTH)).status).toBe(401);
    expect(
      (await app.call("POST", "/ui/api/channels/app/handlers", { name: "x", url: "http://a/" }, { ...app.admin, origin: "https://evil.example" })).status,
    ).toBe(403);
  });
});
