import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildBinary, removeTempDirs, startProcess, tempDir } from "../helpers/binary";
import { parseScrape, sample } from "./scrape";

afterAll(removeTempDirs);

/** A port nothing listens on now (taken from the OS, then released). */
function freePort(): number {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

const TOKEN = "metrics-binary-token";

/** Runs a command without blocking this process (a server of the test must still answer it). */
async function run(argv: string[], cwd: string) {
  const proc = Bun.spawn(argv, { cwd, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, exitCode };
}

test("healthcheck: exit 0 when the service answers, at the config's host and port or --url", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-health-");
  const port = freePort();
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nhost = "0.0.0.0"\nport = ${port}\n[storage]\npath = "data/m.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "${TOKEN}"\n`,
  );
  const mailroom = await startProcess([bin], dir);
  try {
    const byConfig = await run([bin, "healthcheck"], dir);
    expect(byConfig.exitCode).toBe(0);
    expect(byConfig.stdout).toContain(`http://127.0.0.1:${port}/: ok`);
    expect((await run([bin, "healthcheck", "--url", mailroom.url], tempDir("mailroom-noconf-"))).exitCode).toBe(0);
  } finally {
    mailroom.proc.kill("SIGTERM");
    await mailroom.proc.exited;
  }
  // Stopped: the same check now fails, with a short message.
  const down = await run([bin, "healthcheck"], dir);
  expect(down.exitCode).toBe(1);
  expect(down.stderr).toMatch(/^mailroom: healthcheck: http:\/\/127\.0\.0\.1:\d+\/: .+\n$/);
}, 60_000);

test("healthcheck: non-zero for an answer other than 200, a bad URL, a port picked at start, a bad argument", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-health-bad-");
  const sick = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("no", { status: 503 }) });
  try {
    const res = await run([bin, "healthcheck", "--url", `http://127.0.0.1:${sick.port}/`], dir);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain("answered 503");
  } finally {
    sick.stop(true);
  }
  const bad = await run([bin, "healthcheck", "--url", "ftp://x"], dir);
  expect(bad.exitCode).toBe(1);
  expect(bad.stderr).toContain("not an http(s) URL");
  writeFileSync(join(dir, "mailroom.toml"), `[server]\nport = 0\n`);
  const zero = await run([bin, "healthcheck"], dir);
  expect(zero.exitCode).toBe(1);
  expect(zero.stderr).toContain("give --url");
  expect((await run([bin, "healthcheck", "--port", "1"], dir)).exitCode).toBe(2);
}, 60_000);

test("the executable serves /metrics on [metrics] listen, with its own process metrics", async () => {
  const bin = await buildBinary();
  const dir = tempDir("mailroom-metrics-bin-");
  const port = freePort();
  writeFileSync(
    join(dir, "mailroom.toml"),
    `[server]\nport = 0\n[storage]\npath = "data/m.db"\n[[api_keys]]\nlabel = "ci"\ntoken = "${TOKEN}"\n[metrics]\nlisten = "127.0.0.1:${port}"\n`,
  );
  const mailroom = await startProcess([bin], dir);
  try {
    expect((await fetch(`${mailroom.url}/?channel=bin`, { method: "POST", body: "{}" })).status).toBe(200);
    expect((await fetch(`${mailroom.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const metricsUrl = `http://127.0.0.1:${port}/metrics`;
    expect((await fetch(metricsUrl)).status).toBe(401);
    const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const m = parseScrape(await res.text());
    expect(sample(m, "mailroom_hooks_caught_total", { channel: "bin" })).toBe(1);
    expect(sample(m, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(sample(m, "process_resident_memory_bytes")).toBeGreaterThan(10 * 1024 * 1024);
    expect(sample(m, "mailroom_wal_bytes")).toBeGreaterThan(0);
    expect(mailroom.output()).toContain(`metrics:  ${metricsUrl} (bearer token)`);
  } finally {
    mailroom.proc.kill("SIGTERM");
    expect(await mailroom.proc.exited).toBe(0);
  }
}, 60_000);
