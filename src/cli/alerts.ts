import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import type { Io } from "../lib/io";
import { printable } from "../lib/terminal";
import type { Client } from "./client";
import { listCommand } from "./list";

/** A rule as GET /v1/alerts answers it (alerts/rule-model.ts AlertRule). */
type Rule = { name: string; kind: string; source: "config" | "api"; [key: string]: unknown };

/** The flags of `alerts add`: the keys of an [[alerts]] entry (`-` for `_`); lists comma-separated. */
const KEYS = {
  kind: "text",
  channels: "list",
  query: "text",
  "event-types": "list",
  for: "text",
  threshold: "number",
  window: "text",
  schedule: "text",
  reasons: "list",
  handlers: "list",
  notify: "list",
  repeat: "text",
} as const;

/** One line: name, kind, where it comes from, and its other keys as the config file writes them. */
function formatRow(r: Rule): string {
  const skip = new Set(["name", "kind", "source", "created_by", "created_at", "updated_by", "updated_at"]);
  const keys = Object.entries(r)
    .filter(([k, v]) => !skip.has(k) && v !== undefined && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : String(v)}`);
  // A rule's query and names are the caller's text: listCommand escapes what is not printable.
  return [r.name, r.kind.padEnd(14), r.source === "config" ? "config" : "api   ", keys.join(" ")].join("  ");
}

/** `mailroom alerts ls [--json]`, `mailroom alerts add NAME --kind K [--KEY V]...`, `mailroom alerts rm NAME` */
export async function alertsCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "ls":
    case "list": {
      const empty = "no alert rules: add one with mailroom alerts add, or [[alerts]] in the config file (docs/alerts.md)";
      return listCommand<Rule>(rest, client, io, "/v1/alerts", empty, (rules) => rules.map(formatRow));
    }
    case "add": {
      const p = parseFlags(rest, Object.fromEntries(Object.keys(KEYS).map((k) => [k, "value"])) as Record<keyof typeof KEYS, "value">);
      noMore(p, 1);
      const name = required(p, 0, "rule name (mailroom alerts add NAME --kind KIND ...)");
      const rule: Record<string, unknown> = { name };
      for (const [flag, type] of Object.entries(KEYS)) {
        const value = p.values[flag];
        if (value === undefined) continue;
        const key = flag.replace("-", "_");
        if (type === "list")
          rule[key] = value
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean);
        else if (type === "number") {
          if (!/^\d+$/.test(value)) throw new UsageError(`--${flag} must be a whole number`);
          rule[key] = Number(value);
        } else rule[key] = value;
      }
      if (rule.kind === undefined) throw new UsageError("alerts add needs --kind (silence, refusals, handler, new_event_type, rate, relay)");
      const made = await client.call<Rule>("POST", "/v1/alerts", rule);
      io.out(`${printable(formatRow(made))}\n`);
      return 0;
    }
    case "rm":
    case "remove": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const name = required(p, 0, "rule name (mailroom alerts rm NAME)");
      await client.call("DELETE", `/v1/alerts/${encodeURIComponent(name)}`);
      io.out(`${name}: deleted; its issues are resolved\n`);
      return 0;
    }
    case undefined:
      throw new UsageError("alerts needs a subcommand: ls, add, rm");
    default:
      throw unknownSubcommand("alerts", sub, ["ls", "list", "add", "rm", "remove"]);
  }
}
