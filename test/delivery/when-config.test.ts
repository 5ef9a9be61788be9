import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeTempDirs, tempDir } from "../helpers/binary";
import { runCli } from "../cli/run";

// What `mailroom check-config` says of a handler's `when` that does not parse: where, and why.

afterAll(removeTempDirs);

async function checkConfig(toml: string) {
  const file = join(tempDir("mailroom-when-"), "mailroom.toml");
  writeFileSync(file, toml);
  return runCli(["check-config", "--config", file], { env: { MAILROOM_DATABASE_URL: undefined, MAILROOM_DB: undefined } });
}

const handler = (when: string, kind = 'kind = "forward"\nurl = "http://127.0.0.1:3000/h"') =>
  `[[handlers]]\nname = "h"\n${kind}\nwhen = ${JSON.stringify(when)}\n`;

test("check-config refuses a when that does not parse, with the character where it goes wrong", async () => {
  const cases: [string, string][] = [
    ["payload.livemode:false type:", 'handlers[0].when: does not parse at character 24: the term "type:" needs a value'],
    ['type:invoice.* "order failed', "handlers[0].when: does not parse at character 16: a double quote is not closed"],
    ["invoice ok", 'handlers[0].when: does not parse at character 9: "ok" is too short; words need at least 3 characters'],
    ["payload.x:1 event_type:", 'handlers[0].when: does not parse at character 13: the term "event_type:" needs a value'],
    ["   ", "handlers[0].when: needs at least one term"],
  ];
  for (const [when, line] of cases) {
    const ran = await checkConfig(handler(when));
    expect({ when, code: ran.code, stderr: ran.stderr }).toEqual({ when, code: 1, stderr: `mailroom: the config has 1 problem(s):\n  ${line}\n` });
  }
});

test("every handler kind takes when; one that parses is fine", async () => {
  const ran = await checkConfig(`${handler("event_type:invoice.* payload.data.object.livemode:false", 'kind = "command"\nargv = ["true"]')}`);
  expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: "" });
});
