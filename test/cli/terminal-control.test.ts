/**
 * A sender chooses the channel name of a refused request; the terminal's line shows it without
 * its control characters, so a request cannot move the cursor, clear the screen or recolour the
 * operator's terminal.
 */
import { afterAll, expect, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { serveFromSource, waitForOutput } from "./run";

afterAll(removeTempDirs);

test("a refused channel name's control characters are escaped in the terminal line", async () => {
  const run = await serveFromSource({});
  try {
    const evil = encodeURIComponent("x\x1b[2J\x1b]0;owned\x07\r\u009bZ");
    expect((await fetch(`${run.url}/?channel=${evil}`, { method: "POST", body: "x" })).status).toBe(400);
    const line = await waitForOutput(run, /refused: 400/);
    expect(line).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(line).toContain("POST x\\x1b[2J\\x1b]0;owned\\x07\\r\\x9bZ refused: 400");
  } finally {
    await run.stop();
  }
}, 30_000);
