import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { createReceiver } from "./receiver";
import { createRunnerApp, forward } from "./setup";

afterAll(removeTempDirs);

describe("RedeliverHook (POST /v1/hooks/{id}/redeliver), an extension beside RetryHook", () => {
  test("a handled hook is delivered again to every handler of its channel, and the event is kept", async () => {
    const app = createReceiver({ status: 200 });
    const t = createRunnerApp({ handlers: [forward("app", app.url)], channels: [{ name: "gh", handlers: ["app"] }] });
    try {
      const id = await t.send("gh", '{"n":7}');
      await t.runner.tick();
      expect((await t.hook(id)).status).toBe("handled");
      expect((await t.call("POST", `/v1/hooks/${id}/retry`)).status).toBe(409);

      const res = await t.call("POST", `/v1/hooks/${id}/redeliver`);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe("pending");
      expect(res.json.finalized_at).toBeUndefined();
      expect(res.json.events.map((e: any) => [e.kind, e.actor, e.message])).toEqual([
        ["handled", "", ""],
        ["retried", "api:test", "redelivered to every handler of the channel"],
      ]);
      await t.runner.tick();
      expect(app.received).toHaveLength(2);
      expect(new TextDecoder().decode(app.received[1]!.body)).toBe('{"n":7}');
      const hook = await t.hook(id);
      expect(hook.status).toBe("handled");
      expect((await t.attempts(id)).map((a) => [a.attempt, a.outcome])).toEqual([
        [1, "succeeded"],
        [2, "succeeded"],
      ]);
    } finally {
      app.stop();
    }
  });

  test("a channel without handlers answers 409; an unknown hook 404; a bad id 400", async () => {
    const t = createRunnerApp({ handlers: [], channels: [] });
    const id = await t.send("plain");
    const none = await t.call("POST", `/v1/hooks/${id}/redeliver`);
    expect(none.status).toBe(409);
    expect(none.json).toEqual({ code: 9, message: 'cannot redeliver a hook of channel "plain": it has no handlers', details: [] });
    expect((await t.call("POST", `/v1/hooks/${id.slice(0, -1)}${id.endsWith("0") ? "1" : "0"}/redeliver`)).status).toBe(404);
    expect((await t.call("POST", `/v1/hooks/nope/redeliver`)).json.code).toBe(3);
    expect((await t.call("POST", `/v1/hooks/${id}/redeliver`, {}, {})).status).toBe(401);
  });
});

describe("hooks caught before their channel had handlers", () => {
  test("get them when Mailroom starts with the handler configured", async () => {
    const dbPath = join(tempDir("mailroom-late-"), "m.db");
    const before = createRunnerApp({ handlers: [], channels: [] }, { dbPath });
    const id = await before.send("late", '{"early":true}');
    await before.runner.tick();
    before.close();

    const app = createReceiver({ status: 200 });
    try {
      const after = createRunnerApp({ handlers: [forward("app", app.url)], channels: [{ name: "late", handlers: ["app"] }] }, { dbPath });
      await after.runner.tick();
      expect(app.received).toHaveLength(1);
      expect((await after.hook(id)).status).toBe("handled");
      await after.runner.tick();
      expect(app.received).toHaveLength(1);
      after.close();
    } finally {
      app.stop();
    }
  });
});
