import { UsageError, noMore, parseFlags, required, unknownSubcommand } from "../lib/args";
import type { Client } from "./client";
import { listCommand } from "./list";
import type { Io } from "../lib/io";

/** A handler as GET /v1/handlers answers it (delivery/handler-routes.ts HandlerInfo). */
type HandlerInfo = {
  name: string;
  kind: string;
  channels: string[];
  state: string;
  rate: string | null;
  breaker: { state: string; failures: number; threshold: number; reopens_at: string | null } | null;
  waiting: number;
};

/** One line: name, kind, state (with when an open breaker lets an attempt through), attempts waiting, rate, channels. */
function formatRow(h: HandlerInfo, width: number): string {
  const state = h.state === "breaker_open" && h.breaker?.reopens_at ? `breaker_open until ${h.breaker.reopens_at}` : h.state;
  const parts = [h.name.padEnd(width), h.kind.padEnd(7), state.padEnd(17), `${h.waiting} waiting`];
  if (h.rate) parts.push(`rate ${h.rate}`);
  if (h.channels.length) parts.push(`channels ${h.channels.join(",")}`);
  return parts.join("  ");
}

/** `mailroom handlers ls [--json]`, `mailroom handlers pause|resume NAME` */
export async function handlersCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case "ls":
    case "list": {
      return listCommand<HandlerInfo>(rest, client, io, "/v1/handlers", "no handlers", (handlers) => {
        const width = Math.max(...handlers.map((h) => h.name.length));
        return handlers.map((h) => formatRow(h, width));
      });
    }
    case "pause":
    case "resume": {
      const p = parseFlags(rest, {});
      noMore(p, 1);
      const name = required(p, 0, `handler name (mailroom handlers ${sub} NAME)`);
      const h = await client.call<HandlerInfo>("POST", `/v1/handlers/${encodeURIComponent(name)}/${sub}`);
      io.out(`${h.name}  ${h.state}  ${h.waiting} waiting\n`);
      return 0;
    }
    case undefined:
      throw new UsageError("handlers needs a subcommand: ls, pause, resume");
    default:
      throw unknownSubcommand("handlers", sub, ["ls", "list", "pause", "resume"]);
  }
}
