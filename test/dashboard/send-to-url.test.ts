/**
 * Sending a hook to a URL (replay, edit and send) is what adding a forward handler is: Mailroom's
 * request answers from wherever it runs, so a member may not point it at 127.0.0.1 or the internal
 * network and read the answer. Members send into a channel, or to `[dashboard] member_send_to`.
 * No one reaches a link-local address or a cloud metadata service unless `[server] allow_link_local`.
 */
import { describe, expect, test } from "bun:test";
import { receivers } from "../runner/receiver";
import { AUTH, dashboardApp } from "./support";

const receiver = receivers();
const b64 = (s: string) => Buffer.from(s).toString("base64");
const LINK_LOCAL_RULE = "Mailroom does not send to link-local addresses or cloud metadata services unless [server] allow_link_local = true";

describe("members and URLs", () => {
  test("a member gets 403 replaying to any URL, to 127.0.0.1 or through a user name that looks like an allowed host; nothing is sent", async () => {
    const target = receiver({ status: 200, body: "internal secret" });
    const app = await dashboardApp({ dashboard: { member_send_to: ["http://localhost:*"] } });
    const [id] = await app.catchHooks("app", 1);
    const port = new URL(target.url).port;
    for (const url of [target.url, `http://127.0.0.1:${port}/admin`, "https://example.com/hook", `http://localhost:@127.0.0.1:${port}/`]) {
      for (const body of [{ url }, { url, method: "PUT", headers: { "x-edited": "1" }, body: b64("edited") }]) {
        const res = await app.call("POST", `/ui/api/hooks/${id}/replay`, body, app.member);
        expect({ url, status: res.status, code: res.json.code }).toEqual({ url, status: 403, code: 7 });
        expect(res.json.message).toBe(
          "only an admin may send a hook to a URL, as only an admin adds a forward handler; a member may send it into a channel, or to URLs matching [dashboard] member_send_to (http://localhost:*)",
        );
        expect(res.text).not.toContain("internal secret");
      }
    }
    expect(target.received).toHaveLength(0);
    // An admin may: the same request reaches the target and its answer comes back.
    const admin = await app.call("POST", `/ui/api/hooks/${id}/replay`, { url: target.url }, app.admin);
    expect(admin.status).toBe(200);
    expect(Buffer.from(admin.json.body, "base64").toString()).toBe("internal secret");
  });

  test("with member_send_to empty (the default) the refusal says so", async () => {
    const app = await dashboardApp();
    const [id] = await app.catchHooks("app", 1);
    const res = await app.call("POST", `/ui/api/hooks/${id}/replay`, { url: "http://localhost:3000/" }, app.member);
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      code: 7,
      message:
        "only an admin may send a hook to a URL, as only an admin adds a forward handler; a member may send it into a channel, or to no URL ([dashboard] member_send_to is empty)",
      details: [],
    });
  });

  test("a member may send into a channel, and to a URL matching member_send_to", async () => {
    const target = receiver({ status: 201, body: "dev app" });
    const app = await dashboardApp({ dashboard: { member_send_to: ["http://localhost:*", "https://*.example.com/hooks/*"] } });
    const [id] = await app.catchHooks("app", 1);
    const sent = await app.call("POST", `/ui/api/hooks/${id}/send`, { channel: "staging", method: "PUT" }, app.member);
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ channel: "staging", method: "PUT", source_id: id });

    const url = `http://localhost:${new URL(target.url).port}/hook`;
    const res = await app.call("POST", `/ui/api/hooks/${id}/replay`, { url, headers: { "x-edited": "1" } }, app.member);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 201, body: b64("dev app") });
    expect(target.received).toHaveLength(1);
    expect(target.received[0]!.headers["x-edited"]).toBe("1");
  });

  test("member_send_to holds URL patterns: check-config refuses one that is not", async () => {
    const { buildConfig, ConfigError } = await import("../../src/load-config");
    try {
      buildConfig({ dashboard: { member_send_to: ["http://localhost:*", "localhost:3000", "http://a.example:99999/"] } });
      throw new Error("accepted");
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as InstanceType<typeof ConfigError>).problems.map((p) => p.path)).toEqual(["dashboard.member_send_to[1]", "dashboard.member_send_to[2]"]);
    }
  });
});

describe("link-local addresses and metadata services", () => {
  test("an admin replaying to 169.254.169.254, its other spellings or a metadata name is refused with the reason; nothing is sent", async () => {
    const app = await dashboardApp();
    const [id] = await app.catchHooks("app", 1);
    const cases: [string, string][] = [
      ["http://169.254.169.254/latest/meta-data/", `url: 169.254.169.254 is a link-local address: ${LINK_LOCAL_RULE}`],
      ["http://2852039166/", `url: 169.254.169.254 is a link-local address: ${LINK_LOCAL_RULE}`],
      ["http://[::ffff:169.254.169.254]/", `url: [::ffff:a9fe:a9fe] is a link-local address: ${LINK_LOCAL_RULE}`],
      ["http://[fe80::1]/", `url: [fe80::1] is a link-local address: ${LINK_LOCAL_RULE}`],
      ["http://Metadata.Google.Internal./computeMetadata/v1/", `url: the host metadata.google.internal is a cloud metadata service: ${LINK_LOCAL_RULE}`],
      ["http://metadata/", `url: the host metadata is a cloud metadata service: ${LINK_LOCAL_RULE}`],
    ];
    for (const [url, message] of cases) {
      const res = await app.call("POST", `/ui/api/hooks/${id}/replay`, { url }, app.admin);
      expect({ url, status: res.status, json: res.json }).toEqual({ url, status: 403, json: { code: 7, message, details: [] } });
    }
    // The management API's full key too: the same act, the same rule.
    const v1 = await app.call("POST", `/v1/hooks/${id}/replay`, { url: "http://169.254.169.254/" }, AUTH);
    expect(v1.status).toBe(403);
    expect(v1.json.message).toContain(LINK_LOCAL_RULE);
  });

  test("a redirect is never followed: a target that redirects to a metadata service or another internal URL answers its 3xx", async () => {
    const inside = receiver({ status: 200, body: "internal secret" });
    const app = await dashboardApp();
    const [id] = await app.catchHooks("app", 1);
    for (const [status, location] of [
      [302, "http://169.254.169.254/latest/meta-data/"],
      [307, inside.url],
      [308, "http://metadata.google.internal/computeMetadata/v1/"],
    ] as const) {
      const redirecting = receiver({ status, headers: { location } });
      for (const [who, path, auth] of [
        ["admin", "/ui/api", app.admin],
        ["full key", "/v1", AUTH],
      ] as const) {
        const res = await app.call("POST", `${path}/hooks/${id}/replay`, { url: redirecting.url }, auth);
        expect({ who, status: res.status, answered: res.json.status, location: res.json.headers?.location }).toEqual({
          who,
          status: 200,
          answered: status,
          location,
        });
        expect(res.text).not.toContain(b64("internal secret"));
      }
      expect(redirecting.received).toHaveLength(2);
    }
    expect(inside.received).toHaveLength(0);
  });

  test("with [server] allow_link_local = true the request is made", async () => {
    const app = await dashboardApp({ server: { allow_link_local: true } });
    const [id] = await app.catchHooks("app", 1);
    // fe80::1 without a zone cannot be connected to: the answer says why, but nothing refused it.
    const res = await app.call("POST", `/ui/api/hooks/${id}/replay`, { url: "http://[fe80::1]:1/" }, app.admin);
    expect(res.status).toBe(200);
    expect(res.json.error).toBeString();
  });

  test("a forward handler to a link-local address is refused in the dashboard and in the config file (--forward-to too)", async () => {
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const res = await app.call("POST", "/ui/api/channels/app/handlers", { name: "meta", url: "http://169.254.169.254/latest/" }, app.admin);
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ code: 7, message: `url: 169.254.169.254 is a link-local address: ${LINK_LOCAL_RULE}`, details: [] });
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([]);

    const { buildConfig, ConfigError } = await import("../../src/load-config");
    const problems = (run: () => unknown) => {
      try {
        run();
        return [];
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        return error.problems.map((p) => `${p.path}: ${p.message}`);
      }
    };
    expect(problems(() => buildConfig({ handlers: [{ name: "meta", kind: "forward", url: "http://[fe80::a]:80/" }] }))).toEqual([
      `handlers[0].url: [fe80::a] is a link-local address: ${LINK_LOCAL_RULE}`,
    ]);
    expect(problems(() => buildConfig({}, {}, { forwardTo: { url: "http://metadata.goog/" } }))).toEqual([
      `--forward-to: the host metadata.goog is a cloud metadata service: ${LINK_LOCAL_RULE}`,
    ]);
    expect(problems(() => buildConfig({ server: { allow_link_local: true } }, {}, { forwardTo: { url: "http://169.254.169.254/" } }))).toEqual([]);
    const allowed = await dashboardApp({ server: { allow_link_local: true } });
    await allowed.catchHooks("app", 1);
    expect((await allowed.call("POST", "/ui/api/channels/app/handlers", { name: "meta", url: "http://169.254.169.254/" }, allowed.admin)).status).toBe(200);
  });
});
