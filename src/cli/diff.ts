import { diffHooks, type DiffChange } from "../lib/diff";
import { printable } from "../lib/terminal";
import type { WireHook } from "./show";

const show = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : (JSON.stringify(v) ?? "undefined"));

/**
 * One line per change: `+ path: value`, `- path: value`, `~ path: before -> after`. Keys are the
 * sender's: their control characters are written as escapes, never sent to the terminal.
 */
export function formatChanges(section: string, changes: readonly DiffChange[]): string[] {
  return changes.map((c) => {
    const path = [section, ...c.path].join(".");
    if (c.kind === "added") return printable(`+ ${path}: ${show(c.after)}`);
    if (c.kind === "removed") return printable(`- ${path}: ${show(c.before)}`);
    return printable(`~ ${path}: ${show(c.before)} -> ${show(c.after)}`);
  });
}

/** `mailroom hooks diff A B` as text: the request line, query, headers and body, each change on a line. */
export function formatHookDiff(a: WireHook, b: WireHook): string {
  const d = diffHooks(a, b);
  const lines = [
    `--- ${a.id}`,
    `+++ ${b.id}`,
    ...formatChanges("request", d.request),
    ...formatChanges("query", d.query),
    ...formatChanges("headers", d.headers),
  ];
  if (d.body.kind === "json") lines.push(...formatChanges("body", d.body.changes));
  else if (!d.body.same) lines.push("~ body: the bytes differ (not both JSON; see mailroom hooks body)");
  if (lines.length === 2) lines.push("no differences");
  return `${lines.join("\n")}\n`;
}
