import { describe, expect, test } from "bun:test";
import { createFrameWriter } from "../../src/live/frames";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe("live/frames", () => {
  test("frames carry their data as UTF-8, an event without a seq has no id, and the buffer grows past its first size", () => {
    const frames = createFrameWriter("ep");
    const big = "ü€😀".repeat(40_000);
    frames.frame(7, "refusal", big);
    frames.frame(undefined, "skipped", '{"hooks":3}');
    frames.frame(8, "channel", "{}");
    expect(decode(frames.take())).toBe(`id: ep-7\nevent: refusal\ndata: ${big}\n\nevent: skipped\ndata: {"hooks":3}\n\nid: ep-8\nevent: channel\ndata: {}\n\n`);
    expect(frames.size()).toBe(0);
  });
});
