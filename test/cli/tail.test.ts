import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { removeTempDirs, startProcess, tempDir } from "../helpers/binary";
import { MAIN, runCli, serveFromSource, type Served } from "./run";

afterAll(removeTempDirs);
// Every server and tail is a process of its own, started from source.
setDefaultTimeout(60_000);

/** `mailroom tail ...` running in `cwd`, its stdout and stderr gathered as they come. */
function startTail(args: string[], cwd: string) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.MAILROOM_URL;
  delete env.MAILROOM_TOKEN;
  const proc = Bun.spawn([process.execPath, MAIN, "tail", ...args], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const text = { out: "", err: "" };
  const drain = async (stream: ReadableStream<Uint8Array>, key: "out" | "err") => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text[key] += decoder.decode(chunk, { stream: true });
  };
  const drained = Promise.all([drain(proc.stdout, "out"), drain(proc.stderr, "err")]);
  /** Resolves once `re` matches what tail wrote there (the real clock decides when). */
  async function waitFor(key: "out" | "err", re: RegExp, timeout = 20_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const m = re.exec(text[key]);
      if (m) return m;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${re}; stdout:\n${text.out}\nstderr:\n${text.err}`);
      await Bun.sleep(20);
    }
  }
  return {
    text,
    waitFor,
    /** SIGINT, then the exit code once its output is read. */
    async interrupt(): Promise<number> {
      proc.kill("SIGINT");
      const code = await proc.exited;
      await drained;
      return code;
    },
    kill: () => proc.kill("SIGKILL"),
  };
}

async function post(url: string, channel: string, body: string, type = "application/json"): Promise<string> {
  const res = await fetch(`${url}/?channel=${channel}`, { method: "POST", body, headers: { "content-type": type } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** A port nobody listens on now, so a server can be started on it again after a stop. */
function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

describe("mailroom tail, against a running Mailroom (URL and token from the credentials file)", async () => {
  const served: Served = await serveFromSource();
  afterAll(() => served.stop());

  test("a hook sent after tail started appears as one line: time, method, channel, id, status, size, content type, event type", async () => {
    const tail = startTail([], served.dir);
    try {
      await tail.waitFor("err", /^following hooks at http:\/\/127\.0\.0\.1:\d+; Ctrl-C to stop$/m);
      const id = await post(served.url, "orders", '{"type":"order.paid","n":1}');
      const line = (await tail.waitFor("out", new RegExp(`^.*${id}.*$`, "m")))[0];
      expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3}  POST    orders  ${id}  pending    27 B  application/json  order\\.paid$`));
      // A change of status is a line again; the same status again is not.
      await runCli(["hooks", "process", id], { cwd: served.dir });
      await tail.waitFor("out", new RegExp(`${id}  handled `));
      expect(await tail.interrupt()).toBe(0);
      expect(tail.text.out.split("\n").filter((l) => l.includes(id))).toHaveLength(2);
      expect(tail.text.err).not.toContain("lost");
    } finally {
      tail.kill();
    }
  });

  test("--channel and --status filter; --json prints the full Hook resource, one per line", async () => {
    const tail = startTail(["--channel", "gh", "--status", "pending", "--json"], served.dir);
    try {
      await tail.waitFor("err", /following hooks at .* \(channel=gh&status=pending\)/);
      await post(served.url, "other", '{"other":true}');
      const id = await post(served.url, "gh", "a=1", "application/x-www-form-urlencoded");
      await tail.waitFor("out", new RegExp(id));
      // Processed, it is no longer pending: no line. The next pending one is.
      await runCli(["hooks", "process", id], { cwd: served.dir });
      const next = await post(served.url, "gh", "b=2", "text/plain");
      await tail.waitFor("out", new RegExp(next));
      expect(await tail.interrupt()).toBe(0);
      const hooks = tail.text.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(hooks.map((h) => [h.id, h.channel, h.status])).toEqual([
        [id, "gh", "pending"],
        [next, "gh", "pending"],
      ]);
      expect(Buffer.from(hooks[0].body, "base64").toString()).toBe("a=1");
      expect(hooks[0].content_type).toBe("application/x-www-form-urlencoded");
      expect(hooks[0].headers["content-type"]).toBe("application/x-www-form-urlencoded");
    } finally {
      tail.kill();
    }
  });

  test("-q prints only the hooks the query finds, as a search would; a query that does not parse is the 400, exit 1", async () => {
    const tail = startTail(["-q", "(tailword OR payload.kind:wanted) -refund status:pending", "--json"], served.dir);
    try {
      await tail.waitFor("err", /following hooks at /);
      await post(served.url, "gh", '{"note":"tailword refund"}');
      await post(served.url, "gh", '{"note":"nothing here"}');
      const byWord = await post(served.url, "gh", '{"note":"tailword"}');
      const byField = await post(served.url, "other", '{"kind":"wanted"}');
      await tail.waitFor("out", new RegExp(byField));
      // Processed, it is no longer pending: no line.
      await runCli(["hooks", "process", byWord], { cwd: served.dir });
      const last = await post(served.url, "gh", '{"note":"tailword again"}');
      await tail.waitFor("out", new RegExp(last));
      expect(await tail.interrupt()).toBe(0);
      const lines = tail.text.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id);
      expect(lines).toEqual([byWord, byField, last]);
    } finally {
      tail.kill();
    }
    const bad = await runCli(["tail", "-q", "tailword OR"], { cwd: served.dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("mailroom: 400: invalid query: q: at character 12: expected a term, found the end of the query\n");
  });

  test("a bad filter is the service's 400; a wrong token its 401; both exit 1 at once", async () => {
    const bad = await runCli(["tail", "--status", "lost"], { cwd: served.dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('mailroom: 400: invalid query: status: must be one of pending, handled, failed, discarded: got "lost"\n');
    const token = await runCli(["tail", "--token", "mr_wrong"], { cwd: served.dir });
    expect(token.code).toBe(1);
    expect(token.stderr).toContain("401: invalid bearer token");
    const flag = await runCli(["tail", "--follow"], { cwd: served.dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toStartWith("mailroom: unknown flag --follow\n");
  });
});

test("-q with schema:invalid prints the hooks whose contract check failed, once the check is kept", async () => {
  const schemaDir = tempDir("mailroom-tail-schema-");
  const schema = join(schemaDir, "invoice.json");
  writeFileSync(schema, JSON.stringify({ type: "object", required: ["amount"], properties: { amount: { type: "number" } } }));
  const served = await serveFromSource({ channels: [{ name: "billing", schemas: { "invoice.*": schema } }] });
  const tail = startTail(["-q", "schema:invalid", "--json"], served.dir);
  try {
    await tail.waitFor("err", /following hooks at /);
    await post(served.url, "billing", '{"type":"invoice.paid","amount":3}');
    const bad = await post(served.url, "billing", '{"type":"invoice.paid","amount":"three"}');
    const later = await post(served.url, "billing", '{"type":"invoice.paid","amount":"four"}');
    await tail.waitFor("out", new RegExp(later));
    expect(await tail.interrupt()).toBe(0);
    const lines = tail.text.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([bad, later]);
    expect(lines.map((l) => l.contract.result)).toEqual(["invalid", "invalid"]);
  } finally {
    tail.kill();
    await served.stop();
  }
});

test("tail survives a restart of Mailroom: it reconnects, and shows hooks caught meanwhile and after", async () => {
  const served = await serveFromSource({ server: { port: freePort() } });
  let restarted: Awaited<ReturnType<typeof startProcess>> | undefined;
  const tail = startTail(["--channel", "gh"], served.dir);
  try {
    await tail.waitFor("err", /following hooks/);
    const before = await post(served.url, "gh", "1");
    await tail.waitFor("out", new RegExp(before));
    await served.stop();
    await tail.waitFor("err", /connection to http:\/\/127\.0\.0\.1:\d+ lost; reconnecting/);
    restarted = await startProcess([process.execPath, MAIN, "serve", "--config", join(served.dir, "mailroom.toml")], served.dir, { NO_COLOR: "" });
    expect(restarted.url).toBe(served.url);
    // Caught before tail is back: shown once it is (the stream says `reset`, tail lists what it missed).
    const meanwhile = await post(served.url, "gh", "2");
    await tail.waitFor("err", /reconnected/);
    const after = await post(served.url, "gh", "3");
    await tail.waitFor("out", new RegExp(after));
    await tail.waitFor("out", new RegExp(meanwhile));
    expect(await tail.interrupt()).toBe(0);
    const ids = tail.text.out
      .trim()
      .split("\n")
      .map((l) => l.split(/\s+/)[3]);
    expect(ids.sort()).toEqual([before, meanwhile, after].sort());
  } finally {
    tail.kill();
    if (restarted) {
      restarted.proc.kill("SIGTERM");
      await restarted.proc.exited;
    } else await served.stop();
  }
});

test("tail with no Mailroom to reach says so and exits 1", async () => {
  const ran = await runCli(["tail", "--url", `http://127.0.0.1:${freePort()}`]);
  expect(ran.code).toBe(1);
  expect(ran.stderr).toStartWith("mailroom: cannot reach Mailroom at http://127.0.0.1:");
});

describe("mailroom tail prints why a signature failed", async () => {
  const served: Served = await serveFromSource({
    guards: [
      { name: "gh-main", kind: "github", secret: "main-secret-31" },
      { name: "gh-staging", kind: "github", secret: "staging-secret-31" },
    ],
    channels: [
      { name: "gh", guards: ["gh-main"] },
      { name: "ghstaging", guards: ["gh-staging"] },
    ],
  });
  afterAll(() => served.stop());

  test("a refusal is a REFUSED line, and its diagnosis a `why:` line under it, naming the guard and never the secret", async () => {
    const tail = startTail([], served.dir);
    try {
      await tail.waitFor("err", /following hooks at/);
      const body = '{"action":"opened"}';
      const sig = new Bun.CryptoHasher("sha256", "staging-secret-31").update(body).digest("hex");
      const res = await fetch(`${served.url}/?channel=gh`, {
        method: "POST",
        body,
        headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${sig}` },
      });
      expect(res.status).toBe(401);
      await tail.waitFor("out", /REFUSED POST gh 401 by gh-main: .*\n {4}why: .*"gh-staging".* \(wrong_secret\)/);
      expect(await tail.interrupt()).toBe(0);
      expect(tail.text.out + tail.text.err).not.toContain("staging-secret-31");
      expect(tail.text.out + tail.text.err).not.toContain("main-secret-31");
    } finally {
      tail.kill();
    }
  });
});
