import { describe, expect, test } from "bun:test";
import type { Change, Rendered } from "../../src/live/bus";
import { createChangeLog } from "../../src/live/bus";
import { payloadOf, selectWith, startOf, supersededChannels, wantsEverySummary, type StreamFilter } from "../../src/live/select";

/**
 * A write's changes, written short: "h:a/h1" a hook h1 of channel a (status unknown), "h:a/h1=pending"
 * one known to be pending, "c:a" channel a's stats, "r:a" a refusal on channel a.
 */
function changes(...specs: string[]): Change[] {
  return specs.map((s, i) => {
    const [kind, rest] = s.split(":") as [string, string];
    const seq = i + 1;
    if (kind === "c") return { seq, kind: "channel", key: rest };
    if (kind === "r") return { seq, kind: "refusal", key: "{}", channel: rest };
    const [path, status] = rest.split("=");
    const [channel, key] = path!.split("/") as [string, string];
    return { seq, kind: "hook", key, channel, ...(status ? { status: status as "pending" } : {}) };
  });
}

/** As rendered: hooks in `statuses` (by id) have that status, the others are pending; hooks in `gone` render as nothing. */
function renderer(list: Change[], statuses: Record<string, string> = {}, gone: string[] = []) {
  const reads: number[] = [];
  const render = (i: number): Rendered => {
    reads.push(list[i]!.seq);
    const c = list[i]!;
    if (c.kind === "channel") return { event: "channel", channel: c.key };
    if (c.kind === "refusal") return { event: "refusal", channel: c.channel! };
    if (gone.includes(c.key)) return undefined;
    return { event: "hook", channel: c.channel!, status: (statuses[c.key] ?? "pending") as "pending" };
  };
  return { render, reads };
}

type Row = {
  name: string;
  changes: string[];
  cursor?: number;
  filter: StreamFilter;
  statuses?: Record<string, string>;
  gone?: string[];
  /** Seqs sent, oldest first. */ sent: number[];
  skipped?: number;
  /** Seqs read (rendered) to decide; left out: not checked. */ read?: number[];
};

const rows: Row[] = [
  { name: "no filter: every change after the cursor, oldest first", changes: ["h:a/h1", "c:a", "h:b/h2", "r:b"], cursor: 1, filter: {}, sent: [2, 3, 4] },
  { name: "a cursor at the last change: nothing", changes: ["h:a/h1", "c:a"], cursor: 2, filter: {}, sent: [], read: [] },
  {
    name: "channel: another channel's hooks and refusals are left out unread; its channel events are left out once read",
    changes: ["h:a/h1", "h:b/h2", "r:b", "c:b", "c:a"],
    filter: { channel: "a" },
    sent: [1, 5],
    read: [5, 4, 1],
  },
  {
    name: "status: a hook of a known other status is left out unread",
    changes: ["h:a/h1=pending", "h:a/h2", "c:a"],
    filter: { status: "failed" },
    statuses: { h2: "failed" },
    sent: [2, 3],
    read: [3, 2],
  },
  {
    name: "status: a read hook of another status is left out; channel and refusal events pass",
    changes: ["h:a/h1", "h:a/h2", "r:a", "c:a"],
    filter: { status: "handled" },
    statuses: { h2: "handled" },
    sent: [2, 3, 4],
  },
  {
    name: "hook: only that hook of the hooks, unread others; channel events pass",
    changes: ["h:a/h1", "h:a/h2", "c:a", "h:a/h1"],
    filter: { hook: "h2" },
    sent: [2, 3],
    read: [3, 2],
  },
  {
    name: "latest: the newest N hooks, the others counted as skipped and not read",
    changes: ["h:a/h1", "h:a/h2", "h:a/h3", "h:a/h4", "c:a"],
    filter: { latest: 2 },
    sent: [3, 4, 5],
    skipped: 2,
    read: [5, 4, 3],
  },
  {
    name: "latest: a hook changed twice takes one place, with its newest change",
    changes: ["h:a/h1", "h:a/h2", "h:a/h1", "h:a/h3"],
    filter: { latest: 2 },
    sent: [3, 4],
    skipped: 1,
  },
  {
    name: "latest: channel and refusal events are never left out",
    changes: ["r:a", "c:b", "h:a/h1", "h:a/h2"],
    filter: { latest: 1 },
    sent: [1, 2, 4],
    skipped: 1,
  },
  {
    name: "latest with status: hooks are read until N pass",
    changes: ["h:a/h1", "h:a/h2", "h:a/h3"],
    filter: { latest: 1, status: "failed" },
    statuses: { h1: "failed", h2: "failed" },
    sent: [2],
    skipped: 1,
    read: [3, 2],
  },
  {
    name: "latest with channel: only its own channel's hooks count as skipped",
    changes: ["h:b/h1", "h:a/h2", "h:a/h3", "h:b/h4"],
    filter: { latest: 1, channel: "a" },
    sent: [3],
    skipped: 1,
  },
  {
    name: "a channel changed several times is sent once, at its last change, and the earlier ones are not read",
    changes: ["c:a", "h:a/h1", "c:a", "c:b", "c:a"],
    filter: {},
    sent: [2, 4, 5],
    read: [5, 4, 2],
  },
  {
    name: "a hook gone when read (renders as nothing) is left out, and does not count for latest",
    changes: ["h:a/h1", "h:a/h2"],
    filter: { latest: 1 },
    gone: ["h2"],
    sent: [1],
    skipped: 0,
  },
];

describe("live/select: what a stream is sent", () => {
  for (const row of rows) {
    test(row.name, () => {
      const list = changes(...row.changes);
      const { render, reads } = renderer(list, row.statuses, row.gone);
      const { picked, skipped } = selectWith(list, row.cursor ?? 0, row.filter, render);
      expect(picked.map((i) => list[i]!.seq)).toEqual(row.sent);
      expect(skipped).toBe(row.skipped ?? 0);
      if (row.read) expect(reads).toEqual(row.read);
    });
  }

  test("supersededChannels marks all but the last change of each channel", () => {
    const list = changes("c:a", "c:b", "h:a/h1", "c:a");
    expect(list.map(supersededChannels(list))).toEqual([true, false, false, false]);
  });

  test("payloadOf: the summary for fields=summary when there is one, else the whole resource", () => {
    const hook = { event: "hook", channel: "a", data: "whole", summary: "short" };
    const cases: [StreamFilter, NonNullable<Rendered>, string][] = [
      [{ fields: "summary" }, hook, "short"],
      [{}, hook, "whole"],
      [{ fields: "summary" }, { event: "channel", channel: "a", data: "chan" }, "chan"],
      [{}, { event: "hook", channel: "a", summary: "only" }, "only"],
    ];
    for (const [filter, r, payload] of cases) expect(payloadOf(filter, r)).toBe(payload);
  });

  test("wantsEverySummary: fields=summary without latest or hook", () => {
    const cases: [StreamFilter, boolean][] = [
      [{ fields: "summary" }, true],
      [{ fields: "summary", latest: 50 }, false],
      [{ fields: "summary", hook: "x" }, false],
      [{}, false],
    ];
    for (const [filter, wants] of cases) expect([filter, wantsEverySummary(filter)]).toEqual([filter, wants]);
  });
});

describe("live/select: where a stream starts (Last-Event-ID)", () => {
  const log = createChangeLog({ epoch: "ep", kept: 3 });
  for (let i = 0; i < 8; i++) log.hook("a", `h${i}`);
  const cases: [string | null, { cursor: number; reset: boolean }][] = [
    [null, { cursor: 8, reset: false }],
    ["ep-6", { cursor: 6, reset: false }],
    ["ep-8", { cursor: 8, reset: false }],
    ["ep-1", { cursor: 8, reset: true }], // no longer kept
    ["other-6", { cursor: 8, reset: true }], // another process
    ["ep-99", { cursor: 8, reset: true }], // not yet given
    ["garbage", { cursor: 8, reset: true }],
  ];
  for (const [id, start] of cases) {
    test(`Last-Event-ID ${id}`, () => expect(startOf(id, log)).toEqual(start));
  }
});
