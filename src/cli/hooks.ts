import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import { ClientError, type Client } from "./client";
import { didYouMean } from "../lib/suggest";
import type { Io } from "../lib/io";
import { bodyBytes, formatHook, formatHookRow, type ExtendedHook, type WireHook } from "./show";
import { diffHooks } from "../lib/diff";
import { formatHookDiff } from "./diff";

const ID = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;
const id = (value: string) => {
  if (!ID.test(value)) throw new UsageError(`not a hook id: ${value} (ids are lowercase ULIDs, as hooks ls prints them)`);
  return value;
};

/** `mailroom hooks ls|show|body|diff|retry|discard|process|redeliver|delete ...` */
export async function hooksCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "ls":
    case "list": {
      // `-q QUERY` is --search (the query language of docs/search.md).
      const p = parseFlags(
        rest.map((a) => (a === "-q" ? "--search" : a)),
        {
          channel: "value",
          status: "value",
          limit: "value",
          after: "value",
          search: "value",
          since: "value",
          until: "value",
          json: "bool",
        },
      );
      noMore(p, 0);
      const q = new URLSearchParams();
      for (const k of ["channel", "status", "limit", "after", "since", "until"]) if (p.values[k] !== undefined) q.set(k, p.values[k]!);
      if (p.values.search !== undefined) q.set("q", p.values.search);
      // Each line shows the event type, an extension field the API answers only when asked.
      q.set("include", "extensions");
      const hooks = await client.call<ExtendedHook[]>("GET", `/v1/hooks?${q}`);
      if (p.bools.has("json")) return (io.out(JSON.stringify(hooks, null, 2) + "\n"), 0);
      if (hooks.length === 0) {
        // An empty list of a channel that does not exist is most often a misspelt name.
        if (p.values.channel !== undefined) await channelExists(client, p.values.channel);
        return (io.err("no hooks\n"), 0);
      }
      io.out(hooks.map(formatHookRow).join("\n") + "\n");
      return 0;
    }
    case "show":
    case "body": {
      const p = parseFlags(rest, sub === "show" ? { json: "bool" } : {});
      noMore(p, 1);
      // `show` shows the event type (an extension field); `body` needs only the spec's Hook.
      const hook = await client.call<ExtendedHook>("GET", `/v1/hooks/${id(required(p, 0, "hook id"))}${sub === "show" ? "?include=extensions" : ""}`);
      if (sub === "body") return (io.outBytes(bodyBytes(hook)), 0);
      io.out(p.bools.has("json") ? JSON.stringify(hook, null, 2) + "\n" : formatHook(hook));
      return 0;
    }
    case "retry":
    case "discard":
    case "process":
    case "redeliver": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const hook = await client.call<WireHook>("POST", `/v1/hooks/${id(required(p, 0, "hook id"))}/${sub}`);
      io.out(`${hook.id}  ${hook.status}\n`);
      return 0;
    }
    case "diff": {
      const p = parseFlags(rest, { json: "bool" });
      noMore(p, 2);
      const [a, b] = await Promise.all(
        [required(p, 0, "first hook id"), required(p, 1, "second hook id")].map((x) => client.call<WireHook>("GET", `/v1/hooks/${id(x)}`)),
      );
      io.out(
        p.bools.has("json")
          ? `${JSON.stringify(diffHooks(a!, b!), null, 2)}
`
          : formatHookDiff(a!, b!),
      );
      return 0;
    }
    case "delete": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const hookId = id(required(p, 0, "hook id"));
      await client.call("DELETE", `/v1/hooks/${hookId}`);
      io.out(`${hookId}  deleted\n`);
      return 0;
    }
    case "bulk":
      return (await import("./bulk")).bulkCommand(rest, client, io);
    case undefined:
      throw new UsageError("hooks needs a subcommand: ls, show, body, diff, retry, discard, process, redeliver, delete, bulk");
    default:
      throw unknownSubcommand("hooks", sub, SUBCOMMANDS);
  }
}

const SUBCOMMANDS = ["ls", "list", "show", "body", "retry", "discard", "process", "redeliver", "delete", "bulk"];

/** Throws ClientError when Mailroom has no channel `name`, naming the closest one it has. */
async function channelExists(client: Client, name: string): Promise<void> {
  const channels = await client.call<{ name: string }[]>("GET", "/v1/channels");
  const names = channels.map((c) => c.name);
  if (names.includes(name)) return;
  const known = names.length === 0 ? "there are no channels yet" : `channels: ${names.slice(0, 10).join(", ")}${names.length > 10 ? ", ..." : ""}`;
  throw new ClientError(`no channel named ${JSON.stringify(name)}${didYouMean(name, names)}; ${known}`);
}
