/**
 * Dashboard benchmark (run by hand): a data file with 1,000,000 hooks (bench/fill.ts), the
 * executable on it, and Debian's Chromium through playwright-core. Measures, as medians:
 *  - the hooks screen: from navigation to its first page of rows shown;
 *  - a hook's screen: from navigation to its headers and body shown;
 *  - a hook opened from the list beside it (the split view): from the click to its headers and body shown;
 *  - live: from sending a hook (answered 200) to its row in the open hooks screen.
 *
 *   bun run bench/dashboard.ts [--hooks 1000000] [--runs 10] [--no-build]
 */
import { join } from "node:path";
import { mkdirSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { fillHooks } from "./fill";
import { BIN, buildBinary, fmt, mailroomDir, median, percentile, start } from "./lib";

const { values: args } = parseArgs({
  options: { hooks: { type: "string", default: "1000000" }, runs: { type: "string", default: "10" }, "no-build": { type: "boolean", default: false } },
});
const ADMIN = { email: "bench@example.com", password: "bench password 123" };

async function main() {
  if (!args["no-build"]) console.log("building dist/mailroom ..."), buildBinary();
  const dir = mailroomDir({ durability: "normal", extra: `[[users]]\nemail = "${ADMIN.email}"\nrole = "admin"\npassword_env = "BENCH_ADMIN_PASSWORD"\n` });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, "data"));
  const t0 = performance.now();
  const filled = fillHooks(join(dir, "data/mailroom.db"), { hooks: Number(args.hooks), channels: 20, days: 30 });
  console.log(`filled ${args.hooks} hooks in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const server = await start([BIN], { cwd: dir, env: { BENCH_ADMIN_PASSWORD: ADMIN.password } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/ui/`);
    await page.getByLabel("E-mail").fill(ADMIN.email);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.locator("li[data-id]").first().waitFor();
    const runs = Number(args.runs);
    const list: number[] = [];
    const one: number[] = [];
    const split: number[] = [];
    const live: number[] = [];
    const channel = filled.channels[3]!;
    for (let i = 0; i < runs; i++) {
      // The hooks screen, all channels and one channel's failed hooks, alternating.
      let at = performance.now();
      await page.goto(`${server.url}/ui/hooks${i % 2 ? `?channel=${channel}&status=failed` : ""}`);
      await page.locator("li[data-id]").nth(49).waitFor();
      list.push(performance.now() - at);
      const id = await page
        .locator("li[data-id]")
        .nth(i + 1)
        .getAttribute("data-id");
      at = performance.now();
      await page.goto(`${server.url}/ui/hooks/${id}`);
      await page.getByRole("region", { name: "Body" }).waitFor();
      await page.getByRole("table", { name: "Headers" }).waitFor();
      one.push(performance.now() - at);
      // The list is beside the hook: another row opens in place, without loading the page.
      const next = page.locator("li[data-id]").nth(i + 2);
      const nextId = await next.getAttribute("data-id");
      at = performance.now();
      await next.locator("a.row").click();
      await page.locator(`article[data-hook="${nextId}"]`).getByRole("region", { name: "Body" }).waitFor();
      await page.getByRole("table", { name: "Headers" }).waitFor();
      split.push(performance.now() - at);
    }
    await page.goto(`${server.url}/ui/hooks`);
    await page.locator("body[data-live=open]").waitFor();
    for (let i = 0; i < runs; i++) {
      const at = performance.now();
      const res = await fetch(`${server.url}/?channel=live`, { method: "POST", body: `{"n":${i}}`, headers: { "content-type": "application/json" } });
      const { id } = (await res.json()) as { id: string };
      if (res.status !== 200) throw new Error(`hook answered ${res.status}`);
      await page.locator(`li[data-id="${id}"]`).waitFor();
      live.push(performance.now() - at);
    }
    const line = (name: string, xs: number[]) =>
      console.log(
        `  ${name.padEnd(44)} median ${fmt(median(xs), 0).padStart(5)} ms   p90 ${fmt(percentile(xs, 90), 0).padStart(5)} ms   max ${fmt(Math.max(...xs), 0).padStart(5)} ms`,
      );
    console.log(`\n${args.hooks} hooks stored, ${runs} runs each:`);
    line("hooks screen (first 50 rows shown)", list);
    line("a hook's screen (headers and body shown)", one);
    line("a hook opened from the list beside it", split);
    line("a hook answered 200 -> its row in the open list", live);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
