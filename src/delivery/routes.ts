import type { ForwardRoute } from "../config/load";

/**
 * `serve|listen --forward PATTERN=URL`: hooks whose event type PATTERN matches go to URL; the
 * first route that matches a hook wins (config/load.ts makes a forward handler per route). PATTERN
 * is an event type (`invoice.paid`, as the search's `type:` term: ignoring case), a prefix with a
 * trailing `*` (`invoice.*`), or `*` alone: every hook. A full search query is not taken here (a
 * [[handlers]] entry's `when` is): `=` and spaces in a query would make the flag ambiguous.
 */
export type Route = { pattern: string; url: string };

/** What is wrong with a `--forward` value, or undefined. */
export function routeProblem(value: string): string | undefined {
  const eq = value.indexOf("=");
  if (eq < 0) return `--forward: give PATTERN=URL, as --forward 'invoice.*=http://localhost:3000/billing', not ${value}`;
  const pattern = value.slice(0, eq);
  if (pattern === "") return `--forward: the event type pattern before = is empty (* forwards every hook): ${value}`;
  if (pattern.slice(0, -1).includes("*")) return `--forward: * only ends a pattern (a prefix, as invoice.*): ${pattern}`;
  if (value.slice(eq + 1) === "") return `--forward: the URL after = is empty: ${value}`;
  return undefined;
}

/** A `--forward` value routeProblem accepted, as the loader takes it: the `when` query its pattern stands for. */
export function forwardRoute(value: string): ForwardRoute {
  const eq = value.indexOf("=");
  const pattern = value.slice(0, eq);
  const url = value.slice(eq + 1);
  // The value quoted: an event type may hold spaces ("Push Hook") or quotes; a final * stays a prefix.
  return { pattern, url, flag: `--forward ${pattern}`, ...(pattern === "*" ? {} : { when: `type:"${pattern.replaceAll('"', '""')}"` }) };
}
