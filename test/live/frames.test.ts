import { describe, expect, test } from "bun:test";
import { createFrameWriter } from "../../src/live/frames";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe("live/frames", () => {
  test("a caught hook's frame holds its summary as JSON, whatever the sender chose, sender after sender", () => {
    const frames = createFrameWriter("ep");
    const senders = [
      { method: "POST", query: "channel=a&q=\"x\"\\\n<é>", contentType: "text/\"plain\"", ip: "::1" },
      { method: "POST", query: "channel=a&q=\"x\"\\\n<é>", contentType: "text/\"plain\"", ip: "::1" },
      { method: "PUT", query: "", contentType: "", ip: "10.0.0.1" },
      { method: "POST", query: "channel=a", contentType: "application/json", ip: "10.0.0.1" },
    ];
    senders.forEach((s, i) => frames.caught(i + 1, `01kb${i}`, "orders", { ...s, createdAt: Date.UTC(2026, 10, 25, 9, 0, 0, i), size: i * 1000 }));
    const text = decode(frames.take());
    const events = text.split("\n\n").filter(Boolean);
    expect(events).toHaveLength(4);
    events.forEach((e, i) => {
      const [id, event, data] = e.split("\n");
      expect([id, event]).toEqual([`id: ep-${i + 1}`, "event: hook"]);
      expect(JSON.parse(data!.slice("data: ".length))).toEqual({
        id: `01kb${i}`, channel: "orders", status: "pending", method: senders[i]!.method, query: senders[i]!.query,
        content_type: senders[i]!.contentType, ip: senders[i]!.ip, created_at: new Date(Date.UTC(2026, 10, 25, 9, 0, 0, i)).toISOString(), size: i * 1000,
      });
    });
    expect(frames.size()).toBe(0);
  });

  test("other frames carry their data as UTF-8, and the buffer grows past its first size", () => {
    const frames = createFrameWriter("ep");
    const big = "ü€😀".repeat(40_000);
    frames.frame(7, "refusal", big);
    frames.frame(8, "channel", "{}");
    expect(decode(frames.take())).toBe(`id: ep-7\nevent: refusal\ndata: ${big}\n\nid: ep-8\nevent: channel\ndata: {}\n\n`);
  });
});
