/**
 * How soon a silence rule fires after its deadline (issue 33: "within 5 s"), on the executable.
 *
 * Each round starts dist/mailroom (durability "normal") with one silence rule (`for`, on channel
 * "quiet") notifying a generic webhook notifier served by this process, and optionally --rules
 * more rules of every kind and --senders closed-loop senders catching on another channel the whole
 * time. It catches one hook on "quiet" and takes the deadline from it (the time in its id, plus
 * `for`); then it times, from that deadline, the `issue.opened` event on /v1/stream and the
 * notifier's POST. Real time, on purpose: this is what a user waits.
 *
 *   bun run bench/alerts-silence.ts [--rounds 5] [--for 5s] [--rules 50] [--senders 8] [--no-build]
 */
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { ulidTime } from "../src/lib/ids";
import { AUTH, BIN, buildBinary, catching, fmt, mailroomDir, median, start } from "./lib";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    for: { type: "string", default: "5s" },
    rules: { type: "string", default: "50" },
    senders: { type: "string", default: "8" },
    "no-build": { type: "boolean", default: false },
  },
});
const FOR_MS = Number.parseFloat(args.for) * ({ ms: 1, s: 1000, m: 60_000 }[args.for.replace(/^[\d.]+/, "")] ?? NaN);
if (!Number.isFinite(FOR_MS)) throw new Error(`--for: a duration such as 5s, not ${args.for}`);
if (!args["no-build"]) buildBinary();

/** More rules of every kind, none of which fires during a round (as bench:ingest --alerts configures them). */
function moreRules(n: number): string {
  const kinds = [
    'kind = "silence"\nchannels = ["other-*"]\nfor = "1h"\nschedule = "mon-fri 08:00-20:00 Europe/Berlin"',
    'kind = "rate"\nchannels = ["*"]\nthreshold = 10000000\nwindow = "1m"',
    'kind = "refusals"\nchannels = ["*"]\nthreshold = 1000000\nwindow = "10m"',
    'kind = "handler"\nchannels = ["*"]\nthreshold = 1000',
    'kind = "new_event_type"\nchannels = ["nothing-*"]',
  ];
  return Array.from({ length: n }, (_, i) => `[[alerts]]\nname = "more-${i}"\n${kinds[i % kinds.length]}\n`).join("");
}

const toStream: number[] = [];
const toNotifier: number[] = [];
let notified: ((at: number) => void) | undefined;
const receiver = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    // The generic webhook's body is the notice itself (docs/notifiers.md).
    const body = (await req.json()) as { event?: string };
    if (body.event === "opened") notified?.(Date.now());
    return new Response("ok");
  },
});

for (let round = 1; round <= Number(args.rounds); round++) {
  const dir = mailroomDir({
    durability: "normal",
    extra:
      `[[notifiers]]\nname = "hook"\nkind = "webhook"\nurl = "http://127.0.0.1:${receiver.port}/"\nsecret = "whsec_${btoa("bench-secret-0123456789abcdef")}"\n` +
      `[[alerts]]\nname = "quiet"\nkind = "silence"\nchannels = ["quiet"]\nfor = "${args.for}"\nnotify = ["hook"]\n` +
      moreRules(Number(args.rules)),
  });
  const server = await start([BIN, "serve"], { cwd: dir });
  let stop = false;
  const load = Number(args.senders) > 0 ? catching(server.url, Number(args.senders), () => stop) : Promise.resolve(0);
  const opened = new Promise<number>((resolve) => (notified = resolve));
  const stream = await fetch(`${server.url}/v1/stream`, { headers: { ...AUTH, accept: "text/event-stream" } });
  const streamed = (async () => {
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the stream ended before issue.opened");
      text += value;
      if (/^event: issue\.opened$/m.test(text)) return Date.now();
    }
  })();
  const caught = (await (await fetch(`${server.url}/?channel=quiet`, { method: "POST", body: '{"n":1}' })).json()) as { id: string };
  const deadline = ulidTime(caught.id) + FOR_MS;
  const [s, n] = await Promise.all([streamed, opened]);
  stop = true;
  const rate = await load;
  toStream.push(s - deadline);
  toNotifier.push(n - deadline);
  console.log(
    `round ${round}: issue.opened on the stream ${fmt((s - deadline) / 1000)} s after the deadline, the notifier's POST ${fmt((n - deadline) / 1000)} s (catching ${Math.round(rate)} hooks/s beside it)`,
  );
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
receiver.stop(true);
console.log(
  `silence rule for ${args.for}, ${args.rules} more rules, ${args.senders} senders: after the deadline, stream median ${fmt(median(toStream) / 1000)} s (max ${fmt(Math.max(...toStream) / 1000)}), notifier median ${fmt(median(toNotifier) / 1000)} s (max ${fmt(Math.max(...toNotifier) / 1000)})`,
);
