import { afterEach, describe, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { buildConfig } from "../../src/load-config";
import { createReceiver } from "./receiver";
import { createRunnerApp } from "./setup";

/** The README's handler examples, word for word: they must stay valid config. */
const EXAMPLES = `
[[handlers]]
name = "to-local-app"
kind = "forward"
url = "http://127.0.0.1:3000/webhooks"          # or url_env = "TARGET_URL"
headers = { x-env = "dev", authorization_env = "LOCAL_APP_TOKEN" }   # added or replaced
timeout = "10s"
max_attempts = 5
backoff = { initial = "1s", max = "10m" }
concurrency = 4

[[handlers]]
name = "deploy"
kind = "command"
argv = ["./scripts/deploy.sh", "--from-webhook"]
cwd = "."
env = { DEPLOY_ENV = "staging", DEPLOY_TOKEN_env = "DEPLOY_TOKEN" }
timeout = "5m"
max_attempts = 3
concurrency = 1                                  # one deploy at a time

[[handlers]]
name = "to-slack"
kind = "module"
path = "handlers/to-slack.ts"
timeout = "30s"
`;

const GITHUB_EXAMPLE = (url: string) => `
[[guards]]
name = "github-sig"
kind = "github"
secret_env = "GITHUB_WEBHOOK_SECRET"

[[handlers]]
name = "to-local-app"
kind = "forward"
url = "${url}"
timeout = "10s"
max_attempts = 5
backoff = { initial = "1s", max = "10m" }

[[channels]]
name = "github"
guards = ["github-sig"]
handlers = ["to-local-app"]
`;

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

describe("README examples", () => {
  test("the handler examples are valid config", () => {
    const config = buildConfig(Bun.TOML.parse(EXAMPLES), { LOCAL_APP_TOKEN: "Bearer x", DEPLOY_TOKEN: "d" });
    expect(config.handlers.map((h) => h.kind)).toEqual(["forward", "command", "module"]);
  });

  test("a GitHub repository's webhook, signature checked, forwarded to a local app with its signature intact", async () => {
    const secret = "It's a Secret to Everybody";
    const app = createReceiver({ status: 503, body: "starting" }, { status: 200, body: "ok" });
    stops.push(app.stop);
    const t = createRunnerApp(Bun.TOML.parse(GITHUB_EXAMPLE(app.url)) as any, { env: { GITHUB_WEBHOOK_SECRET: secret } });
    const body = JSON.stringify({ zen: "Design for failure.", hook_id: 1 });
    const headers = { "x-github-event": "ping", "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958" };

    const forged = await t.app.handle(
      new Request("http://localhost/?channel=github", {
        method: "POST",
        body,
        headers: { ...headers, "content-type": "application/json", "x-hub-signature-256": await sign("wrong", body) },
      }),
    );
    expect(forged.status).toBe(401);
    const id = await t.send("github", body, { ...headers, "x-hub-signature-256": await sign(secret, body) });

    await t.runner.tick(); // the app is still starting: 503
    t.clock.advance(1000);
    await t.runner.tick();
    expect(app.received).toHaveLength(2);
    const delivered = app.received[1]!;
    expect(new TextDecoder().decode(delivered.body)).toBe(body);
    expect(delivered.headers["x-github-event"]).toBe("ping");
    expect(delivered.headers["x-github-delivery"]).toBe(headers["x-github-delivery"]);
    expect(delivered.headers["x-hub-signature-256"]).toBe(await sign(secret, body)); // the app can verify it too
    expect(delivered.headers["x-mailroom-hook-id"]).toBe(id);
    expect((await t.hook(id)).status).toBe("handled");
  });
});
