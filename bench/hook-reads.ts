/**
 * Hook reads by size: catches one hook of each size into an in-memory Mailroom and times
 * GET /v1/hooks/{id} and GET /v1/hooks?channel= (median of --samples calls), in process, so the
 * time is what a read costs the one thread that also catches (nothing else runs meanwhile).
 * Also times a page of 50 small hooks, the usual read, and, over a socket, how long hooks sent one
 * at a time wait while another process reads a page of --big hooks of 10 MiB.
 *
 *   bun run bench/hook-reads.ts [--samples 5] [--big 20]
 */
import { parseArgs } from "node:util";
import { createTestApp } from "../test/helpers/app";
import { fmt, median, pad, percentile } from "./lib";

const { values: args } = parseArgs({ options: { samples: { type: "string", default: "5" }, big: { type: "string", default: "20" } } });
const samples = Number(args.samples);
const MiB = 1024 * 1024;

function jsonOf(bytes: number): string {
  const item = '"abcdefghijklmnopqrstuvwxyz0123456789+/ABCDEFGHIJKLMNOPQRSTUVWX"';
  return `{"items":[${Array.from({ length: Math.max(1, Math.floor(bytes / (item.length + 1))) }, () => item).join(",")}]}`;
}

async function time(t: ReturnType<typeof createTestApp>, path: string): Promise<{ ms: number; status: number }> {
  const ms: number[] = [];
  let status = 0;
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const res = await t.app.handle(new Request(`http://localhost${path}`, { headers: { authorization: "Bearer test-token-0123456789" } }));
    await res.arrayBuffer();
    ms.push(performance.now() - t0);
    status = res.status;
  }
  return { ms: median(ms), status };
}

async function main() {
  const t = createTestApp({ hooks: { max_body: "10MiB" } });
  console.log(`  ${"hook".padEnd(28)} ${pad("get ms", 9)} ${pad("list ms", 9)}  status`);
  const sizes = [1024, 100 * 1024, MiB, 3 * MiB, 6 * MiB, 10 * MiB - 1024];
  for (const [kind, type] of [
    ["json", "application/json"],
    ["bytes", "application/octet-stream"],
  ] as const) {
    for (const size of sizes) {
      const channel = `${kind}-${size}`;
      const body = kind === "json" ? jsonOf(size) : crypto.getRandomValues(new Uint8Array(size));
      const res = await t.post(channel, body, { "content-type": type });
      const { id } = (await res.json()) as { id: string };
      const get = await time(t, `/v1/hooks/${id}`);
      const list = await time(t, `/v1/hooks?channel=${channel}`);
      const label = `${kind} ${size >= MiB ? `${fmt(size / MiB, 1)} MiB` : `${size / 1024} KiB`}`;
      console.log(`  ${label.padEnd(28)} ${pad(fmt(get.ms), 9)} ${pad(fmt(list.ms), 9)}  ${get.status}/${list.status}`);
    }
  }
  await t.catchHooks("small", 50);
  const page = await time(t, "/v1/hooks?channel=small&limit=50");
  console.log(`  ${"page of 50 small hooks".padEnd(28)} ${pad("", 9)} ${pad(fmt(page.ms), 9)}  ${page.status}`);
  await catchingDuringBigPage(t, Number(args.big));
}

/** Hooks sent one at a time while another process reads a page of `n` JSON hooks of 10 MiB. */
async function catchingDuringBigPage(t: ReturnType<typeof createTestApp>, n: number): Promise<void> {
  const body = jsonOf(10 * MiB - 1024);
  for (let i = 0; i < n; i++) await t.post("huge", body, { "content-type": "application/json" });
  const server = t.listen();
  try {
    const script = `const r = await fetch(process.argv.at(-1), { headers: { authorization: "Bearer test-token-0123456789" } }); await r.arrayBuffer(); console.log(r.status);`;
    const t0 = performance.now();
    const reader = Bun.spawn([process.execPath, "-e", script, `${server.url}/v1/hooks?channel=huge&limit=100`], { stdout: "pipe" });
    let reading = true;
    const done = reader.exited.then(() => (reading = false));
    const waits: number[] = [];
    while (reading) {
      const s0 = performance.now();
      await (await fetch(`${server.url}/?channel=live`, { method: "POST", body: "{}" })).arrayBuffer();
      waits.push(performance.now() - s0);
    }
    await done;
    const status = (await new Response(reader.stdout).text()).trim();
    console.log(
      `  page of ${n} hooks of 10 MiB read in ${fmt((performance.now() - t0) / 1000, 2)} s (${status}); meanwhile ${waits.length} hooks caught one at a time: ` +
        `median ${fmt(median(waits))} ms, p99 ${fmt(percentile(waits, 99))} ms, max ${fmt(Math.max(...waits))} ms`,
    );
  } finally {
    server.stop();
  }
}

await main();
