/** The change feed's messages (db/feed-changes.ts): what a caught hook and a hook's status carry to the other instances. */
import { describe, expect, test } from "bun:test";
import { decode, encode } from "../../src/db/feed-changes";
import type { CaughtRow } from "../../src/hooks/changes";

const row = (id: string, eventType: string): CaughtRow => ({
  id,
  channel: "shop",
  method: "POST",
  query: "",
  headers: "{}",
  body: new Uint8Array(),
  ip: "127.0.0.1",
  createdAt: 0,
  eventType,
});

describe("the change feed's messages", () => {
  test("a caught hook carries its event type, whatever characters the sender put in it", () => {
    const hostile = "a/b,c%d\n\u202e";
    const [topic, key] = encode({ kind: "caught", hooks: [row("01a", "invoice.paid"), row("01b", hostile), row("01c", "")] });
    expect(topic).toBe("caught");
    expect(key.split(",")).toHaveLength(3);
    expect(decode(topic, key)).toEqual([
      { kind: "hook", id: "01a", channel: "shop", eventType: "invoice.paid" },
      { kind: "hook", id: "01b", channel: "shop", eventType: hostile },
      { kind: "hook", id: "01c", channel: "shop", eventType: "" },
    ]);
  });

  test("a hook's new status is carried; an unknown one, a message of the older form, and a bad escape are read without it", () => {
    expect(decode(...encode({ kind: "hook", id: "01a", channel: "shop", status: "failed" }))).toEqual([
      { kind: "hook", id: "01a", channel: "shop", status: "failed" },
    ]);
    expect(decode("hook", "shop/01a,shop/01b/bogus")).toEqual([
      { kind: "hook", id: "01a", channel: "shop" },
      { kind: "hook", id: "01b", channel: "shop" },
    ]);
    expect(decode("caught", "shop/01a,shop/01b/%E0%A4%A")).toEqual([
      { kind: "hook", id: "01a", channel: "shop", eventType: "" },
      { kind: "hook", id: "01b", channel: "shop", eventType: "" },
    ]);
  });
});
