import { afterEach, expect, test } from "bun:test";
import { dashboardApp } from "../dashboard/support";

// A channel's `resign` secret comes from the config file: a forward an admin adds in the dashboard
// must not carry it (for a token scheme such as GitLab's the secret itself is the header).

const servers: { stop(close?: boolean): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.stop(true);
});

test("a dashboard forward on a re-signing channel sends the hook as caught, without the config file's secret", async () => {
  const got: Record<string, string>[] = [];
  const target = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => (got.push(Object.fromEntries(r.headers)), new Response("ok")) });
  servers.push(target);
  const app = await dashboardApp({ channels: [{ name: "app", resign: { kind: "gitlab", secret: "CONFIG_FILE_SECRET_123" } }] });
  const added = await app.call("POST", "/ui/api/channels/app/handlers", { name: "mine", url: `http://127.0.0.1:${target.port}/x` }, app.admin);
  expect(added.status).toBe(200);
  await app.catchHooks("app", 1);
  await app.runner.tick();
  expect(got).toHaveLength(1);
  expect(JSON.stringify(got[0])).not.toContain("CONFIG_FILE_SECRET_123");
  expect(got[0]!["x-gitlab-token"]).toBeUndefined();
});
