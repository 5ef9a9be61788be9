/** Tags in export lines, read back by import (docs/tags.md); a line with a tag out of the pattern fails. Runs on every target. */
import { expect, test } from "bun:test";
import { AUTH, startTarget } from "../helpers/target";

test("an export line carries the hook's tags; import puts them back; a bad tag fails its line", async () => {
  const from = await startTarget();
  const [a, b] = await from.catchHooks("shop", 2);
  await from.call("POST", `/v1/hooks/${a}/tags`, { tags: ["billing", "big"] });
  const res = await from.call("GET", "/v1/hooks/export?format=jsonl");
  const lines = res.text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(lines.find((l) => l.id === a).tags).toEqual(["big", "billing"]);
  expect("tags" in lines.find((l) => l.id === b)).toBe(false);

  const to = await startTarget();
  const ndjson = { ...AUTH, "content-type": "application/x-ndjson" };
  const bad = JSON.stringify({ ...lines[0], id: "01jz0000000000000000000000", tags: ["Bad tag"] });
  const report = await to.call("POST", "/v1/hooks/import", `${res.text}\n${bad}\n`, ndjson);
  expect(report.json.imported).toBe(2);
  expect(report.json.failed).toHaveLength(1);
  expect(report.json.failed[0].message).toStartWith("/tags/0");
  expect((await to.call("GET", `/v1/hooks/${a}?include=extensions`)).json.tags).toEqual(["big", "billing"]);
  expect(((await to.call("GET", "/v1/hooks?q=tag:billing")).json as { id: string }[]).map((h) => h.id)).toEqual([a!]);
});
