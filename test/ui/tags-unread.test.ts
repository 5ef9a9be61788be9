import { describe, expect, test } from "bun:test";
import { tagFilterHref } from "../../src/ui/filters";
import { titleOf } from "../../src/ui/format";

describe("a tag chip's link", () => {
  test("adds tag:NAME to the search, keeps the other filters, starts paging over and leaves a view", () => {
    expect(tagFilterHref("", "billing")).toBe("/ui/hooks?q=tag%3Abilling");
    expect(tagFilterHref("?channel=shop&q=refund&after=01kb&view=mine", "big")).toBe("/ui/hooks?channel=shop&q=refund+tag%3Abig");
  });
  test("is not added twice", () => {
    expect(tagFilterHref("?q=tag%3Abig+refund", "big")).toBe("/ui/hooks?q=tag%3Abig+refund");
  });
});

describe("the page's title", () => {
  test("carries the unread total, and nothing at none", () => {
    expect(titleOf(0)).toBe("Mailroom");
    expect(titleOf(3)).toBe("(3) Mailroom");
    expect(titleOf(12_345)).toBe("(999+) Mailroom");
  });
});
