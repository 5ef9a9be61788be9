import { readFileSync } from "node:fs";
import { buildEvent, parseValue, TriggerError, triggerList, unknownProvider } from "../triggers";
import { UsageError, noMore, parseFlags, required } from "../lib/args";
import type { Client } from "./client";
import type { Io } from "../lib/io";
import { parseHeader } from "./send";
import { signForTrigger } from "./sign";

/** `--override path=value` -> [path, value]. */
function parseOverride(text: string): [string, unknown] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new UsageError(`--override: expected PATH=VALUE, got ${text}`);
  return [text.slice(0, eq), parseValue(text.slice(eq + 1))];
}

/**
 * `mailroom trigger --fixture FILE [CHANNEL | --to URL] [--sign PROVIDER --secret S] [--edit]` sends a
 * fixture instead (trigger-fixture.ts).
 * `mailroom trigger PROVIDER EVENT [CHANNEL | --to URL] [--secret S | --private-key @FILE]
 * [--override PATH=VALUE]... [--header K:V]...` sends a realistic sample event, signed as the
 * provider signs when a key is given; `mailroom trigger --list [PROVIDER]` prints what exists.
 */
export async function triggerCommand(argv: string[], client: Client, io: Io): Promise<number> {
  const p = parseFlags(argv, {
    list: "bool",
    to: "value",
    secret: "value",
    "private-key": "value",
    override: "multi",
    header: "multi",
    fixture: "value",
    sign: "value",
    edit: "bool",
  });
  if (p.values.fixture !== undefined) {
    noMore(p, 1);
    const channel = p.positional[0];
    if (channel !== undefined && p.values.to !== undefined) throw new UsageError("give a CHANNEL or --to URL, not both");
    const { triggerFixture } = await import("./trigger-fixture");
    return triggerFixture(
      {
        file: p.values.fixture,
        channel,
        to: p.values.to,
        overrides: Object.fromEntries((p.multi.override ?? []).map(parseOverride)),
        headers: p.multi.header ?? [],
        sign: p.values.sign,
        secret: p.values.secret ?? io.env.MAILROOM_SIGN_SECRET,
        privateKey: p.values["private-key"],
        edit: p.bools.has("edit"),
      },
      client,
      io,
    );
  }
  if (p.values.sign !== undefined || p.bools.has("edit"))
    throw new UsageError("--sign and --edit go with --fixture FILE (a sample event is signed as its PROVIDER)");
  if (p.bools.has("list")) {
    noMore(p, 1);
    const only = p.positional[0];
    const all = (await triggerList()).filter((x) => only === undefined || x.provider === only);
    if (all.length === 0) throw new UsageError(`trigger: ${unknownProvider(only!)}`);
    for (const { provider, events } of all) io.out(`${provider}\n${events.map((e) => `  ${e}\n`).join("")}`);
    return 0;
  }
  const provider = required(p, 0, "provider (mailroom trigger PROVIDER EVENT)");
  const event = required(p, 1, "event (mailroom trigger --list shows them)");
  noMore(p, 3);
  const channel = p.positional[2];
  if (channel !== undefined && p.values.to !== undefined) throw new UsageError("give a CHANNEL or --to URL, not both");
  const overrides = Object.fromEntries((p.multi.override ?? []).map(parseOverride));
  let built: Awaited<ReturnType<typeof buildEvent>>;
  try {
    built = await buildEvent(provider, event, overrides, io.now());
  } catch (error) {
    if (error instanceof TriggerError) throw new UsageError(`trigger: ${error.message}`);
    throw error;
  }
  let headers: Record<string, string> = { "content-type": built.contentType, ...built.headers };
  for (const h of p.multi.header ?? []) {
    const [k, v] = parseHeader(h);
    headers[k] = v;
  }
  const secret = p.values.secret ?? io.env.MAILROOM_SIGN_SECRET;
  const privateKeyFile = p.values["private-key"];
  const privateKey = privateKeyFile === undefined ? undefined : privateKeyFile.startsWith("@") ? readFileSync(privateKeyFile.slice(1), "utf8") : privateKeyFile;
  const target = p.values.to ?? `${client.base}/?channel=${encodeURIComponent(channel ?? provider)}`;
  let url = target;
  if (secret !== undefined || privateKey !== undefined) {
    ({ headers, url } = signForTrigger(provider, { secret, privateKey }, { url, method: "POST", headers, body: built.body }, io.now()));
  } else io.err(`mailroom: sending unsigned (give --secret S or $MAILROOM_SIGN_SECRET to sign as ${provider})\n`);
  const res =
    p.values.to !== undefined
      ? await fetch(url, { method: "POST", headers, body: built.body })
      : await client.request("POST", url.slice(client.base.length), undefined, { headers, body: built.body });
  io.out(`${res.status} ${await res.text()}\n`);
  return res.ok ? 0 : 1;
}
