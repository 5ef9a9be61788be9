import { expect, test } from "bun:test";
import { createRunnerApp } from "./setup";

test("a forward whose settings fetch refuses (stored before they were checked) fails each attempt saying what is wrong", async () => {
  const t = createRunnerApp({ handlers: [], channels: [{ name: "gh" }] });
  // As a forward stored by an older version reaches the runner: without the config's or the dashboard's check.
  await t.runner.addForward("gh", {
    name: "old",
    kind: "forward",
    url: "http://127.0.0.1:1/hook",
    headers: { "x-token": "s3cret\r\nx-evil: 1" },
    max_attempts: 1,
    concurrency: 1,
    backoff: { initial: 1000, max: 1000 },
    timeout: 1000,
  });
  const id = await t.send("gh", new TextEncoder().encode("{}"), {});
  await t.runner.tick();
  const [attempt] = await t.attempts(id);
  expect(attempt).toMatchObject({
    handler: "old",
    outcome: "gave_up",
    http_status: null,
    error:
      "the handler's settings cannot be sent: headers.x-token: not a valid header value: no CR, LF or other control character but tab, and no character above U+00FF",
  });
  expect((await t.hook(id)).status).toBe("failed");
});
