import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { runCli } from "../cli/run";

// check-config warns when what re-signs has no guard that verifies the sender: its hooks go out as caught.

afterAll(removeTempDirs);

async function checkConfig(toml: string) {
  const file = join(tempDir("mailroom-resign-"), "mailroom.toml");
  writeFileSync(file, toml);
  return runCli(["check-config", "--config", file], { env: { MAILROOM_DATABASE_URL: undefined, MAILROOM_DB: undefined } });
}

const RESIGN = 'resign = { kind = "stripe", secret = "whsec_local" }';
const CONFIG = `
[[guards]]
name = "posts"
kind = "method"

[[guards]]
name = "stripe-in"
kind = "stripe"
secret = "whsec_sender"

[[handlers]]
name = "out"
kind = "forward"
url = "http://127.0.0.1:3000/h"
${RESIGN}

[[handlers]]
name = "plain"
kind = "forward"
url = "http://127.0.0.1:3000/h"

[[channels]]
name = "open"
handlers = ["out"]
guards = ["posts"]

[[channels]]
name = "open-resign"
handlers = ["plain"]
${RESIGN}

[[channels]]
name = "guarded"
handlers = ["out", "plain"]
guards = ["stripe-in"]
${RESIGN}
`;

test("check-config warns of a re-signing channel, or a re-signing handler's channel, without a signature guard", async () => {
  const ran = await checkConfig(CONFIG);
  const why = (c: string) => `channel "${c}" has no guard that verifies the sender: its hooks are delivered without re-signing`;
  expect(ran.code).toBe(0);
  expect(ran.stderr.split("\n").filter((l) => l.includes("warning"))).toEqual([
    expect.stringContaining(`warning: channels[1].resign: ${why("open-resign")}`),
    expect.stringContaining(`warning: handlers[0].resign: ${why("open")}`),
  ]);
});
